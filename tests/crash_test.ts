/**
 * Crash safety (issue 19): main.ts in its own process, killed with SIGKILL
 * in the middle of writes on every write path — DNS records, tunnel peers,
 * attestation heartbeats. The store file must pass `PRAGMA integrity_check`,
 * and after a restart every write that was acknowledged must be there.
 */
import { DatabaseSync } from "node:sqlite";
import { assert, assertEquals } from "./assert.ts";
import { call } from "./helpers/test_server.ts";
import { startServerProcess } from "../bench/lib/server_process.ts";
import { AttestClient, fetchTransport } from "../lib/attest/client.ts";
import { loadCore } from "../lib/attest/core.ts";

const LOAD_MS = 1500;

Deno.test("kill -9 under write load: the store is intact and every acknowledged write survives a restart", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "palisade-crash-" });
  const acked = {
    records: [] as string[],
    peers: [] as string[],
    heartbeats: new Map<string, number>(),
  };
  let zone = "";
  try {
    {
      const s = await startServerProcess({ PALISADE_ATTEST_INIT_PER_MINUTE: "0" }, {
        dataDir,
        keepData: true,
      });
      const admin = { username: "admin", password: s.password };
      const cookie = (await fetch(`${s.admin}/api/v1/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(admin),
      })).headers.get("set-cookie")!.split(";")[0];
      const token = (await call(`${s.admin}/api/v1/auth/tokens`, {
        method: "POST",
        headers: { cookie },
        json: { name: "crash", expires_in_days: 1 },
      })).body.raw_token as string;
      const A = { authorization: `Bearer ${token}` };
      const jwt = (await call(`${s.dnsApi}/api/v1/auth/login`, { method: "POST", json: admin }))
        .body.token as string;
      const D = { authorization: `Bearer ${jwt}` };
      zone = "crash.test";
      await call(`${s.dnsApi}/api/v1/zones`, {
        method: "POST",
        headers: D,
        json: { name: zone, admin_email: "h@crash.test" },
      });
      const iface = (await call(`${s.admin}/api/v1/interfaces`, {
        method: "POST",
        headers: A,
        json: { name: "wg9", address_v4: "10.99.0.1/16" },
      })).body.id as string;
      const core = await loadCore();
      const clients = await Promise.all(Array.from({ length: 20 }, async () => {
        const c = new AttestClient(core, fetchTransport(s.attest));
        await c.init();
        return c;
      }));

      const stop = Date.now() + LOAD_MS;
      let alive = true;
      const until = async (fn: (i: number) => Promise<void>) => {
        for (let i = 0; alive && Date.now() < stop; i++) await fn(i).catch(() => {});
      };
      const load = Promise.all([
        until(async (i) => {
          const r = await call(`${s.dnsApi}/api/v1/zones/${zone}/records`, {
            method: "POST",
            headers: D,
            json: { domain: `r${i}.${zone}`, type: "A", value: "192.0.2.1" },
          });
          if (r.status === 201) acked.records.push(r.body.id as string);
        }),
        until(async (i) => {
          const r = await call(`${s.admin}/api/v1/interfaces/${iface}/peers`, {
            method: "POST",
            headers: A,
            json: { name: `p${i}` },
          });
          if (r.status === 201) acked.peers.push(r.body.id as string);
        }),
        until(async (i) => {
          const c = clients[i % clients.length];
          // Five per session within ten seconds: the spec's rate limit.
          if (c.accepted >= 5) return;
          if (await c.heartbeat()) {
            acked.heartbeats.set(c.session!.session_id, c.accepted);
          }
        }),
      ]);
      // Killed mid-load: whatever was in flight is not acknowledged.
      await new Promise((r) => setTimeout(r, LOAD_MS / 2));
      await s.crash();
      alive = false;
      await load;
    }
    console.log(
      `crash: acknowledged ${acked.records.length} records, ${acked.peers.length} peers, ` +
        `${[...acked.heartbeats.values()].reduce((a, b) => a + b, 0)} heartbeats`,
    );
    assert(acked.records.length > 5, `only ${acked.records.length} records acknowledged`);
    assert(acked.peers.length > 5, `only ${acked.peers.length} peers acknowledged`);
    assert(acked.heartbeats.size > 5, `only ${acked.heartbeats.size} sessions advanced`);

    const db = new DatabaseSync(`${dataDir}/palisade.db`);
    try {
      const check = db.prepare("PRAGMA integrity_check").all() as { integrity_check: string }[];
      assertEquals(check.map((r) => r.integrity_check), ["ok"]);
      const chains = new Map(
        (db.prepare("SELECT session_id, chain_length FROM attest_sessions").all() as {
          session_id: string;
          chain_length: number;
        }[]).map((r) => [r.session_id, r.chain_length]),
      );
      for (const [id, n] of acked.heartbeats) {
        assert((chains.get(id) ?? 0) >= n, `session ${id}: ${chains.get(id)} < ${n} acknowledged`);
      }
    } finally {
      db.close();
    }

    await using again = await startServerProcess({}, { dataDir, keepData: true });
    const admin = { username: "admin", password: again.password };
    const jwt = (await call(`${again.dnsApi}/api/v1/auth/login`, { method: "POST", json: admin }))
      .body.token as string;
    const records = (await call(`${again.dnsApi}/api/v1/zones/${zone}/records`, {
      headers: { authorization: `Bearer ${jwt}` },
    })).body.records as { id: string }[];
    const stored = new Set(records.map((r) => r.id));
    assertEquals(acked.records.filter((id) => !stored.has(id)), [], "records lost");
    const cookie = (await fetch(`${again.admin}/api/v1/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(admin),
    })).headers.get("set-cookie")!.split(";")[0];
    const peers = (await call(`${again.admin}/api/v1/peers`, { headers: { cookie } })).body
      .peers as { id: string }[];
    const storedPeers = new Set(peers.map((p) => p.id));
    assertEquals(acked.peers.filter((id) => !storedPeers.has(id)), [], "peers lost");
  } finally {
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});
