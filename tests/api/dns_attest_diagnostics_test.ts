/**
 * GET /diagnostics/dns and /diagnostics/attestation on real listeners: the
 * NOTIFY outcome per secondary (one that answers, one that never does), a
 * zone the answer index cannot build after a restart, the DNS listener
 * stopped, and attestation threads (a crashed one is replaced and shown).
 */
import { assertEquals } from "../assert.ts";
import { apiClient } from "../helpers/api_client.ts";
import { dnsApi } from "../helpers/dns_api.ts";
import { freePort } from "../helpers/ports.ts";
import { rawSet } from "../helpers/raw_sql.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { waitFor } from "../helpers/wait.ts";

/** Polls `read` until it returns a value (bounded by `ms`); throws naming `what` otherwise. */
async function poll<T>(read: () => Promise<T | null>, ms: number, what: string): Promise<T> {
  let got: T | null = null;
  if (!await waitFor(async () => (got = await read()) !== null, ms, 100)) {
    throw new Error(`no ${what} within ${ms} ms`);
  }
  return got!;
}

type Check = { name: string; status: string; message: string; details: Record<string, unknown> };
type Report = { status: string; checks: Check[] };
const byName = (r: Report) => Object.fromEntries(r.checks.map((c) => [c.name, c]));

/** A secondary that acknowledges every NOTIFY (the query echoed with QR set). */
function fakeSecondary(): { port: number; close(): void } {
  const sock = Deno.listenDatagram({ hostname: "127.0.0.1", port: 0, transport: "udp" });
  (async () => {
    for await (const [msg, addr] of sock) {
      const reply = new Uint8Array(msg);
      reply[2] |= 0x80;
      await sock.send(reply, addr).catch(() => {});
    }
  })().catch(() => {});
  return { port: (sock.addr as Deno.NetAddr).port, close: () => sock.close() };
}

const ZONE = {
  name: "diag.test",
  admin_email: "hostmaster@diag.test",
  nameservers: ["ns1.diag.test"],
};

Deno.test("GET /diagnostics/dns: listener, zones and NOTIFY per secondary; a zone left out of the index and a stopped listener fail", async () => {
  const secondary = fakeSecondary();
  const silent = freePort();
  const dataDir = await Deno.makeTempDir({ prefix: "palisade-diag-" });
  const env = {
    PALISADE_DNS_NOTIFY: `127.0.0.1:${secondary.port},127.0.0.1:${silent}`,
  };
  try {
    {
      await using t = await startTestServer({ env, dataDir });
      const api = apiClient(t.admin, { cookie: await t.login() });
      const before = byName((await api.get("/diagnostics/dns")).body);
      assertEquals(
        [before.listener.status, before.zones.status, before.notify.status],
        ["ok", "ok", "ok"],
      );
      assertEquals(before.notify.message, "No NOTIFY sent since start");

      const dns = await dnsApi(t);
      assertEquals((await dns.post("/zones", ZONE)).status, 201);
      const serial = (await dns.get(`/zones/${ZONE.name}`)).body.serial;
      // The silent secondary is given up on after its retries (5 × 1 s).
      const notify = await poll(
        async () => {
          const c = byName((await api.get("/diagnostics/dns")).body).notify;
          return (c.details.secondaries as unknown[]).length === 2 ? c : null;
        },
        15_000,
        "NOTIFY outcome for both secondaries",
      );
      assertEquals(notify.status, "warn");
      assertEquals(
        (notify.details.secondaries as { target: string; ok: boolean; serial: number }[]).map((
          s,
        ) => [s.target, s.ok, s.serial]),
        [[`127.0.0.1:${secondary.port}`, true, serial], [`127.0.0.1:${silent}`, false, serial]],
      );
      const zones = byName((await api.get("/diagnostics/dns")).body).zones;
      assertEquals([zones.status, zones.details.serials], ["ok", { [ZONE.name]: serial }]);
      // A hand edit the index cannot build from: the zone is not served after a restart.
      rawSet(t.store, "dns_zones", { nameservers: '["not a name!"]' }, {
        name: ZONE.name,
      });
    }
    {
      await using t = await startTestServer({ dataDir });
      const api = apiClient(t.admin, { cookie: await t.login() });
      const report = (await api.get("/diagnostics/dns")).body;
      assertEquals(report.status, "fail");
      assertEquals(byName(report).zones.details.missing, [ZONE.name]);
      assertEquals(byName(report).listener.status, "ok");

      await t.server.dns.close();
      const stopped = byName((await api.get("/diagnostics/dns")).body).listener;
      assertEquals([stopped.status, stopped.details.udp, stopped.details.tcp], [
        "fail",
        false,
        false,
      ]);
    }
  } finally {
    secondary.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("GET /diagnostics/attestation: threads, sessions and rejections; a crashed thread shows once replaced", async () => {
  await using t = await startTestServer({ env: { PALISADE_ATTEST_WORKERS: "2" } });
  const api = apiClient(t.admin, { cookie: await t.login() });
  const ok = (await api.get("/diagnostics/attestation")).body;
  assertEquals(
    ok.checks.map((c: Check) => `${c.name}:${c.status}`),
    ["threads:ok", "sessions:ok", "rejections:ok"],
  );
  assertEquals(byName(ok).threads.details, { configured: 2, serving: 2, replaced: 0 });

  t.server.attestThreads!.crashOne();
  const after = await poll(
    async () => {
      const r = (await api.get("/diagnostics/attestation")).body;
      return byName(r).threads.details.replaced === 1 ? r as Report : null;
    },
    15_000,
    "replaced thread",
  );
  assertEquals([after.status, byName(after).threads.status], ["warn", "warn"]);
});
