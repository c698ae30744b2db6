/**
 * The peer page's settings form carries the expiry and quota fields
 * (docs/peer_lifecycle.md, "Dashboard"): they show the stored limits, one
 * post saves the peer and its limits together, a refused limit changes
 * nothing of the peer, a refused peer change sets no limit, and a post
 * without the limit fields leaves the limits alone. /peers/{id}/limits
 * keeps working beside it. Underneath, the limits' write runs inside the
 * peer update's transaction: a failure there rolls the peer back.
 */
import { assert, assertEquals } from "../assert.ts";
import { fieldError, getPage, postForm } from "../helpers/dashboard.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { ValidationError } from "../../lib/errors.ts";

const MIB = 1024 * 1024;

const form = (over: Record<string, string> = {}) => ({
  _action: "update",
  name: "laptop",
  profile: "full-tunnel",
  address: "10.62.0.2",
  dns: "",
  keepalive: "",
  mtu: "",
  allowed_ips: "",
  preshared_key: "true",
  expires_at: "",
  quota_mib: "",
  period_days: "",
  ...over,
});

Deno.test("peer settings form: the limit fields show the stored limits and one post saves the peer and its limits", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  const { tunnels } = t.services;
  const iface = await tunnels.interfaces.create({ name: "wg7", address_v4: "10.62.0.1/24" }, "t");
  const peer = await tunnels.peers.create(iface.id, { name: "laptop" }, "t");
  await tunnels.limits.set(peer.id, { quota_bytes: 4 * MIB }, "t");

  const { html } = await getPage(t, `/peers/${peer.id}`, cookie);
  const settings = html.slice(html.indexOf('aria-label="Peer settings"'));
  assert(/name="quota_mib"[^>]*value="4"/.test(settings), "the quota field holds the stored 4 MiB");
  assert(settings.includes('name="expires_at"') && settings.includes('name="period_days"'));

  const res = await postForm(
    t,
    `/peers/${peer.id}`,
    form({
      name: "laptop-2",
      quota_mib: "8",
      expires_at: "2031-01-01",
      period_days: "30",
    }),
    cookie,
  );
  assertEquals([res.status, res.headers.get("location")], [303, `/peers/${peer.id}?done=updated`]);
  assertEquals((await tunnels.peers.view(peer.id)).name, "laptop-2");
  const l = await tunnels.limits.get(peer.id);
  assertEquals([l.quota_bytes, l.expires_at, l.quota_period_days], [
    8 * MIB,
    "2031-01-01T00:00:00.000Z",
    30,
  ]);

  // A post without the limit fields (an older page, a script) leaves them as they are.
  const { expires_at: _e, quota_mib: _q, period_days: _d, ...bare } = form({ name: "laptop-3" });
  assertEquals((await postForm(t, `/peers/${peer.id}`, bare, cookie)).status, 303);
  assertEquals((await tunnels.peers.view(peer.id)).name, "laptop-3");
  assertEquals((await tunnels.limits.get(peer.id)).quota_bytes, 8 * MIB);

  // Unchanged limits write no audit record; /peers/{id}/limits still sets them.
  const audits = async () =>
    (await t.services.audit.list({
      event_type: "peer.limits_updated",
      resource_id: peer.id,
      limit: 50,
    }))
      .records.length;
  const before = await audits();
  const same = form({
    name: "laptop-4",
    quota_mib: "8",
    expires_at: "2031-01-01T00:00:00.000Z",
    period_days: "30",
  });
  assertEquals((await postForm(t, `/peers/${peer.id}`, same, cookie)).status, 303);
  assertEquals(await audits(), before);
  const alone = await postForm(t, `/peers/${peer.id}/limits`, {
    expires_at: "",
    quota_mib: "2",
    period_days: "",
  }, cookie);
  assertEquals(alone.status, 303);
  assertEquals((await tunnels.limits.get(peer.id)).quota_bytes, 2 * MIB);
});

Deno.test("peer settings form: a refused limit changes nothing of the peer, a refused peer change sets no limit", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  const { tunnels } = t.services;
  const iface = await tunnels.interfaces.create({ name: "wg7", address_v4: "10.62.0.1/24" }, "t");
  const peer = await tunnels.peers.create(iface.id, { name: "laptop" }, "t");
  await tunnels.peers.create(iface.id, { name: "phone" }, "t");

  const lots = await postForm(
    t,
    `/peers/${peer.id}`,
    form({
      name: "renamed",
      quota_mib: "lots",
    }),
    cookie,
  );
  assertEquals(lots.status, 400);
  assert(fieldError(await lots.text(), "f-quota_mib")?.includes("MiB"));
  // Parsed as a number, but beyond what a byte count can hold exactly: the service refuses it.
  const huge = await postForm(
    t,
    `/peers/${peer.id}`,
    form({
      name: "renamed",
      quota_mib: "1e300",
    }),
    cookie,
  );
  assertEquals(huge.status, 400);
  assert(fieldError(await huge.text(), "f-quota_mib")?.includes("2^53 - 1"));
  const days = await postForm(
    t,
    `/peers/${peer.id}`,
    form({
      name: "renamed",
      period_days: "99999",
    }),
    cookie,
  );
  assertEquals(days.status, 400);
  assert(fieldError(await days.text(), "f-period_days")?.includes("3660"));
  assertEquals((await tunnels.peers.view(peer.id)).name, "laptop");
  const fresh = await tunnels.limits.get(peer.id);
  assertEquals([fresh.quota_bytes, fresh.expires_at], [null, null]);

  // The name is taken on the interface: the peer is refused and no limit is set.
  const taken = await postForm(
    t,
    `/peers/${peer.id}`,
    form({
      name: "phone",
      quota_mib: "4",
    }),
    cookie,
  );
  assertEquals(taken.status, 409);
  assert(fieldError(await taken.text(), "f-name"));
  assertEquals((await tunnels.limits.get(peer.id)).quota_bytes, null);
  const listed = (await tunnels.peers.list()).find((p) => p.id === peer.id)!;
  assertEquals(listed.limits, null, "no limits row was written");
});

Deno.test("peer update: a failure in the work run inside its transaction rolls the peer's change back", async () => {
  await using t = await startTestServer();
  const { tunnels } = t.services;
  const iface = await tunnels.interfaces.create({ name: "wg7", address_v4: "10.62.0.1/24" }, "t");
  const peer = await tunnels.peers.create(iface.id, { name: "laptop" }, "t");
  let thrown: unknown;
  try {
    await tunnels.peers.update(peer.id, { name: "renamed" }, "t", () => {
      throw new ValidationError("Refused inside", "quota_bytes");
    });
  } catch (err) {
    thrown = err;
  }
  assert(thrown instanceof ValidationError);
  assertEquals((await tunnels.peers.view(peer.id)).name, "laptop");
});
