/**
 * `POST /zones/{name}/dnssec/rotate` through the DNS management API
 * (specs/dns.md; docs/dns.md, "Rollover"): the answer's shape, the refusals
 * (404 unknown zone, 409 DNSSEC off, 409 a rollover under way, 403 viewer),
 * `zsk_rotation_days` in the status, and a restart over the same store
 * applying at once the step that fell due while the server was down.
 */
import { ManualClock } from "../../lib/clock.ts";
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { auditRows, type DnsApi, dnsApi, watchEvents } from "../helpers/dns_api.ts";
import { startTestServer } from "../helpers/test_server.ts";

const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function zone(api: DnsApi, name: string): Promise<void> {
  const r = await api.post("/zones", { name, admin_email: `hostmaster@${name}` });
  assertEquals(r.status, 201, JSON.stringify(r.body));
}

Deno.test("rotate: 404 unknown zone, 409 DNSSEC off, 409 a rollover under way, 403 viewer; nothing changes on a refusal", async () => {
  await using t = await startTestServer();
  await using events = await watchEvents(t);
  const api = await dnsApi(t);
  await zone(api, "example.com");
  const nowhere = await api.post("/zones/nowhere.example/dnssec/rotate");
  assertEquals(nowhere.status, 404, JSON.stringify(nowhere.body));

  const off = await api.post("/zones/example.com/dnssec/rotate");
  assertEquals(off.status, 409, JSON.stringify(off.body));
  assertMatch(off.body.error as string, /DNSSEC of zone "example\.com" is not enabled/);

  const on = await api.post("/zones/example.com/dnssec", { enable: true });
  const zsk = (on.body.keys as { id: string; key_type: string }[]).find((k) =>
    k.key_type === "ZSK"
  )!;
  const viewer = await dnsApi(t, "vera", "viewer");
  assertEquals((await viewer.post("/zones/example.com/dnssec/rotate")).status, 403);

  const operator = await dnsApi(t, "otto", "operator");
  const r = await operator.post("/zones/example.com/dnssec/rotate");
  assertEquals(r.status, 200, JSON.stringify(r.body));
  assertEquals(Object.keys(r.body).sort(), [
    "message",
    "new_key_id",
    "old_key_id",
    "rollover_completion_date",
    "success",
  ]);
  assertEquals([r.body.success, r.body.old_key_id], [true, zsk.id]);
  assert(r.body.new_key_id !== zsk.id);
  assertMatch(r.body.rollover_completion_date as string, ISO_UTC);
  const serial = (await api.get("/zones/example.com")).body.serial;
  const status = (await api.get("/zones/example.com/dnssec")).body;

  const busy = await api.post("/zones/example.com/dnssec/rotate");
  assertEquals(busy.status, 409, JSON.stringify(busy.body));
  assertMatch(busy.body.error as string, /rollover of zone "example\.com" is in progress/);
  assertEquals((await api.get("/zones/example.com")).body.serial, serial);
  assertEquals((await api.get("/zones/example.com/dnssec")).body, status);
  assertEquals(status.rollover, {
    old_key_id: zsk.id,
    new_key_id: r.body.new_key_id,
    completion_date: r.body.rollover_completion_date,
  });
  await events.waitFor((f) =>
    f.type === "ZoneChanged" && f.payload.action === "dnssec_rotated" && f.payload.serial === serial
  );
  const audit = await auditRows(t, { event_type: "dns.dnssec.rotated" });
  assertEquals(audit.map((a) => [a.actor, a.resource_id]), [["otto", "example.com"]]);
});

Deno.test("zsk_rotation_days is set, shown and cleared through POST /zones/{name}/dnssec; out of range is 400", async () => {
  await using t = await startTestServer();
  const api = await dnsApi(t);
  await zone(api, "example.org");
  const on = await api.post("/zones/example.org/dnssec", { enable: true, zsk_rotation_days: 90 });
  assertEquals([on.status, on.body.zsk_rotation_days], [200, 90]);
  assertEquals((await api.get("/zones/example.org/dnssec")).body.zsk_rotation_days, 90);
  for (const bad of [0, 3651, 2.5, "30"]) {
    const r = await api.post("/zones/example.org/dnssec", { enable: true, zsk_rotation_days: bad });
    assertEquals(r.status, 400, `${bad}: ${JSON.stringify(r.body)}`);
  }
  const kept = await api.post("/zones/example.org/dnssec", { enable: true });
  assertEquals(kept.body.zsk_rotation_days, 90, "absent keeps it");
  const cleared = await api.post("/zones/example.org/dnssec", {
    enable: true,
    zsk_rotation_days: null,
  });
  assertEquals(cleared.body.zsk_rotation_days, null);
  const audit = await auditRows(t, { event_type: "dns.dnssec.updated" });
  assertEquals(audit.length, 2);
});

Deno.test("a rollover survives a restart: the first pass after start applies the step that fell due meanwhile", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "palisade-rotate-restart-" });
  const clock = new ManualClock(Date.UTC(2026, 4, 1, 12));
  // Only the pass at start may take the step: the next one is an hour away.
  const env = { PALISADE_DNSSEC_ROLLOVER_CHECK_MS: "3600000" };
  try {
    let rotated: Record<string, unknown>;
    {
      await using t = await startTestServer({ dataDir, clock, env });
      const api = await dnsApi(t);
      await zone(api, "example.net");
      await api.post("/zones/example.net/dnssec", { enable: true });
      rotated = (await api.post("/zones/example.net/dnssec/rotate")).body;
    }
    // Defaults: propagation delay 3600 s plus the DNSKEY TTL (default_ttl 3600 s) = 2 h.
    clock.advance(2 * 3600_000);
    await using t = await startTestServer({ dataDir, clock, env });
    const api = await dnsApi(t);
    const keys = (await api.get("/zones/example.net/dnssec")).body.keys as {
      id: string;
      state: string;
    }[];
    assertEquals(keys.slice(1).map((k) => [k.id, k.state]), [
      [rotated.old_key_id, "retired"],
      [rotated.new_key_id, "active"],
    ]);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
