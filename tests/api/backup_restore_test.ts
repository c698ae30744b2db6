/**
 * POST /backups/{id}/restore on a server whose attestation threads and API
 * keep writing: the restored store equals the backup file (read on its own
 * connection), every listener keeps answering without a restart, and a
 * damaged or newer-schema backup is refused with nothing changed.
 */
import { DatabaseSync } from "node:sqlite";
import { assert, assertEquals, assertStringIncludes } from "../assert.ts";
import { dig } from "../dns/dig.ts";
import { apiClient } from "../helpers/api_client.ts";
import { startAttestRig } from "../helpers/attest_server.ts";
import { dnsApi } from "../helpers/dns_api.ts";
import type { Store } from "../../lib/store/store.ts";

/** Rows per table and sample rows of a database, on the given connection. */
function describe(db: { prepare(sql: string): { all(): unknown[] } }) {
  const names = (db.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
  ).all() as { name: string }[]).map((r) => r.name).filter((n) => n !== "audit");
  const counts = Object.fromEntries(
    names.map((
      n,
    ) => [n, (db.prepare(`SELECT COUNT(*) AS n FROM ${n}`).all()[0] as { n: number }).n]),
  );
  const col = (sql: string) => db.prepare(sql).all().map((r) => Object.values(r as object)[0]);
  return {
    counts,
    records: col("SELECT name || ' ' || type || ' ' || value FROM dns_records ORDER BY 1"),
    sessions: col(
      "SELECT session_id || ':' || pending_step || ':' || last_hash FROM attest_sessions ORDER BY 1",
    ),
    interfaces: col("SELECT name FROM interfaces ORDER BY 1"),
  };
}

function fileFacts(path: string) {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return describe(db);
  } finally {
    db.close();
  }
}

const live = (store: Store) => describe(store.db);

Deno.test("restore under load: the store equals the backup, every listener keeps answering, bad backups change nothing", async () => {
  await using rig = await startAttestRig({ env: { PALISADE_ATTEST_WORKERS: "2" } });
  const t = rig.t;
  const api = apiClient(t.admin, { cookie: await t.login() });
  const dns = await dnsApi(t);
  assertEquals(
    (await dns.post("/zones", { name: "example.com", admin_email: "h@example.com" })).status,
    201,
  );
  const rec = (name: string) =>
    dns.post("/zones/example.com/records", {
      domain: `${name}.example.com`,
      type: "A",
      value: "192.0.2.10",
    });
  assertEquals((await rec("www")).status, 201);

  // Writers: new attestation sessions and their heartbeats on the threads, DNS records on the API.
  let stop = false;
  let writes = 0;
  const load = (async () => {
    for (let i = 0; i < 400 && !stop; i++) {
      const c = await rig.client();
      await c.heartbeat();
      await rec(`load${i}`);
      writes++;
    }
  })();
  while (writes < 3) await new Promise((r) => setTimeout(r, 20));
  const created = await api.post("/backups/create");
  assertEquals(created.status, 201);
  const before = writes;
  while (writes < before + 3) await new Promise((r) => setTimeout(r, 20));
  stop = true;
  await load;
  const backup = created.body;
  const expected = fileFacts(`${t.dir}/backups/${backup.id}.db`);
  assert(expected.sessions.length >= 3);
  const { audit: _, ...manifestCounts } = backup.counts;
  assertEquals(manifestCounts, expected.counts);

  // Changes after the snapshot.
  assertEquals(
    (await api.post("/interfaces", { name: "wg9", address_v4: "10.9.0.1/24" })).status,
    201,
  );
  assertEquals((await rec("after")).status, 201);
  assert(JSON.stringify(live(t.store)) !== JSON.stringify(expected));

  const restored = await api.post(`/backups/${backup.id}/restore`);
  assertEquals(restored.status, 200);
  assertEquals(restored.body.safety_backup.kind, "safety");
  const check = t.store.get<{ integrity_check: string }>("PRAGMA integrity_check");
  assertEquals(check?.integrity_check, "ok");
  assertEquals(live(t.store), expected);
  // The safety backup holds the replaced state.
  assertEquals(
    fileFacts(`${t.dir}/backups/${restored.body.safety_backup.id}.db`).interfaces,
    ["wg9"],
  );

  // Every listener answers, from the restored state, without a restart.
  assertEquals((await api.get("/interfaces")).body.interfaces, []);
  const www = await dig(t.dns.port, ["www.example.com", "A"], t.dns.hostname);
  assertEquals(www.status, "NOERROR");
  assertStringIncludes(www.answer.join("\n"), "192.0.2.10");
  const after = await dig(t.dns.port, ["after.example.com", "A"], t.dns.hostname);
  assertEquals(after.status, "NXDOMAIN");
  const health = await fetch(`${t.attest}/health`);
  await health.body?.cancel();
  assertEquals(health.status, 200);
  const fresh = await rig.client();
  assertEquals(await fresh.heartbeat(), true);
  const audit = await t.services.audit.list({ event_type: "backup.restored", limit: 5, offset: 0 });
  assertEquals(audit.records.map((r) => r.resource_id), [backup.id]);

  // A damaged backup: bytes flipped in the copy → 422, nothing changes.
  const bad = (await api.post("/backups/create")).body;
  const badPath = `${t.dir}/backups/${bad.id}.db`;
  const bytes = await Deno.readFile(badPath);
  for (let i = 4096; i < 4196; i++) bytes[i] ^= 0xff;
  await Deno.writeFile(badPath, bytes);
  const state = live(t.store);
  const listed = (await api.get("/backups")).body.backups.length;
  const refused = await api.post(`/backups/${bad.id}/restore`);
  assertEquals(refused.status, 422);
  assertStringIncludes(refused.body.error, "checksum");
  assertEquals(live(t.store), state);
  assertEquals((await api.get("/backups")).body.backups.length, listed);

  // A newer schema (user_version bumped in a copy, with a true manifest) → 409, nothing changes.
  const src = (await api.post("/backups/create")).body;
  const newerId = src.id.replace(/-[0-9a-f]{8}$/, "-00000000");
  const newerPath = `${t.dir}/backups/${newerId}.db`;
  await Deno.copyFile(`${t.dir}/backups/${src.id}.db`, newerPath);
  const db = new DatabaseSync(newerPath);
  db.exec("PRAGMA user_version = 999");
  db.close();
  const newerBytes = await Deno.readFile(newerPath);
  const sha = Array.from(
    new Uint8Array(await crypto.subtle.digest("SHA-256", newerBytes)),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");
  await Deno.writeTextFile(
    `${t.dir}/backups/${newerId}.json`,
    JSON.stringify({
      ...src,
      id: newerId,
      sha256: sha,
      size: newerBytes.length,
      schema_version: 999,
    }),
  );
  const state2 = live(t.store);
  const listed2 = (await api.get("/backups")).body.backups.length;
  const newer = await api.post(`/backups/${newerId}/restore`);
  assertEquals(newer.status, 409);
  assertStringIncludes(newer.body.error, "schema version 999");
  assertEquals(live(t.store), state2);
  assertEquals((await api.get("/backups")).body.backups.length, listed2);
  assertEquals((await api.post("/backups/20990101T000000000Z-deadbeef/restore")).status, 404);
});
