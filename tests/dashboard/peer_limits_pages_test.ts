/**
 * The dashboard's peer limits (docs/peer_lifecycle.md): the form sets an
 * expiry and a quota (a bad value is refused next to its field), the new
 * peer form sets them with the peer, and the peer page and the peers list
 * show the usage bar and the days left.
 */
import { assert, assertEquals } from "../assert.ts";
import { counterRead } from "../helpers/live_counters.ts";
import { fieldError, getPage, postForm } from "../helpers/dashboard.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { ManualClock } from "../../lib/clock.ts";
import { apiClient } from "../helpers/api_client.ts";

Deno.test("peer limits pages: the form sets expiry and quota; the peer page and the list show the usage bar and days left", async () => {
  const clock = new ManualClock(Date.now());
  await using t = await startTestServer({ clock });
  const cookie = await t.login();
  const api = apiClient(t.admin, { cookie });
  const iface = (await api.post("/interfaces", { name: "wg7", address_v4: "10.62.0.1/24" })).body;
  const peer = (await api.post(`/interfaces/${iface.id}/peers`, { name: "laptop" })).body;

  const bad = await postForm(t, `/peers/${peer.id}/limits`, {
    expires_at: "",
    quota_mib: "lots",
    period_days: "",
  }, cookie);
  assertEquals(bad.status, 400);
  assert(fieldError(await bad.text(), "f-quota_mib")?.includes("MiB"));

  const expires = new Date(clock.now() + 12 * 86_400_000 - 60_000).toISOString();
  const ok = await postForm(t, `/peers/${peer.id}/limits`, {
    expires_at: expires,
    quota_mib: "4",
    period_days: "",
  }, cookie);
  assertEquals([ok.status, ok.headers.get("location")], [303, `/peers/${peer.id}`]);
  const limits = (await api.get(`/peers/${peer.id}/limits`)).body;
  assertEquals([limits.quota_bytes, limits.quota_period], [4 * 1024 * 1024, "monthly"]);
  assertEquals(limits.expires_at, expires);

  // 1 MiB used, by hand through the enforcer's accounting (first read: the baseline).
  await t.services.tunnels.limitEnforcer.account(counterRead(peer.public_key, 0, 0, "wg7"));
  await t.services.tunnels.limitEnforcer.account(
    counterRead(peer.public_key, 1024 * 1024, 0, "wg7"),
  );

  for (const path of [`/peers/${peer.id}`, "/peers"]) {
    const { status, html } = await getPage(t, path, cookie);
    assertEquals(status, 200, path);
    assert(/<meter[^>]*max="4194304"[^>]*value="1048576"/.test(html), `${path}: usage meter`);
    assert(html.includes("1.0 MiB of 4.0 MiB"), `${path}: usage text`);
    assert(html.includes("12 days left"), `${path}: days left`);
  }
});

Deno.test("new peer form: a quota and period given with the peer are stored; a bad one creates no peer", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  const api = apiClient(t.admin, { cookie });
  const iface = (await api.post("/interfaces", { name: "wg8", address_v4: "10.63.0.1/24" })).body;
  const base = { interface_id: iface.id, profile: "full-tunnel", expires_at: "" };
  const bad = await postForm(t, "/peers/new", {
    ...base,
    name: "bad",
    quota_mib: "2",
    period_days: "weekly",
  }, cookie);
  assertEquals(bad.status, 400);
  assert(fieldError(await bad.text(), "f-period_days")?.includes("days"));
  assertEquals((await api.get("/peers")).body.total, 0);
  const made = await postForm(t, "/peers/new", {
    ...base,
    name: "phone",
    quota_mib: "2",
    period_days: "7",
  }, cookie);
  assertEquals(made.status, 303);
  const id = made.headers.get("location")!.split("/")[2].split("?")[0];
  const limits = (await api.get(`/peers/${id}/limits`)).body;
  assertEquals([limits.quota_bytes, limits.quota_period_days], [2 * 1024 * 1024, 7]);
});
