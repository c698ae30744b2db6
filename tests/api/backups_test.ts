/**
 * The backup routes: create, list, get, download and delete, who may call
 * them, 404 for unknown ids, retention, file modes, and the audit trail.
 */
import { DatabaseSync } from "node:sqlite";
import { assert, assertEquals } from "../assert.ts";
import { apiClient } from "../helpers/api_client.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { backupDiagnostics } from "../../lib/backup/diagnostics.ts";

const sha256Hex = async (bytes: Uint8Array<ArrayBuffer>) =>
  Array.from(
    new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");

Deno.test("POST /backups/create writes an owner-only copy and a manifest that describe the store", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  await api.post("/interfaces", { name: "wg1", address_v4: "10.8.0.1/24" });
  const created = await api.post("/backups/create");
  assertEquals(created.status, 201);
  const m = created.body;
  const file = `${t.dir}/backups/${m.id}.db`;
  assertEquals((await Deno.stat(file)).mode! & 0o777, 0o600);
  assertEquals((await Deno.stat(`${t.dir}/backups`)).mode! & 0o777, 0o700);
  assertEquals((await Deno.stat(`${t.dir}/backups/${m.id}.json`)).mode! & 0o777, 0o600);
  const bytes = await Deno.readFile(file);
  assertEquals([m.size, m.sha256], [bytes.length, await sha256Hex(bytes)]);
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const version = db.prepare("PRAGMA user_version").get() as { user_version: number };
    assertEquals(m.schema_version, version.user_version);
    assertEquals(m.counts.interfaces, 1);
    const names = db.prepare("SELECT name FROM interfaces").all().map((r) => r.name);
    assertEquals(names, ["wg1"]);
    const check = db.prepare("PRAGMA integrity_check").get() as { integrity_check: string };
    assertEquals(check.integrity_check, "ok");
  } finally {
    db.close();
  }
  assertEquals([m.kind, m.created_by, m.app_version], ["manual", "admin", "0.1.0"]);
  const audit = await t.services.audit.list({ resource_type: "backup", limit: 10, offset: 0 });
  assertEquals(audit.records.map((r) => `${r.event_type}:${r.resource_id}`), [
    `backup.created:${m.id}`,
  ]);
});

Deno.test("GET /backups lists newest first; GET, download and DELETE by id; 404 for unknown ids", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  const a = (await api.post("/backups/create")).body;
  const b = (await api.post("/backups/create")).body;
  const list = await api.get("/backups");
  assertEquals(list.status, 200);
  assertEquals(list.body.backups.map((m: { id: string }) => m.id), [b.id, a.id]);
  assertEquals((await api.get(`/backups/${a.id}`)).body, a);

  const dl = await api.fetch(`/backups/${a.id}/download`);
  assertEquals(dl.status, 200);
  assertEquals(
    dl.headers.get("content-disposition"),
    `attachment; filename="palisade-backup-${a.id}.db"`,
  );
  assertEquals(dl.headers.get("cache-control"), "no-store");
  const body = new Uint8Array(await dl.arrayBuffer());
  assertEquals(await sha256Hex(body), a.sha256);

  const del = await api.del(`/backups/${a.id}`);
  assertEquals(del.status, 200);
  assertEquals((await api.get("/backups")).body.backups.map((m: { id: string }) => m.id), [b.id]);
  for (const path of [`${a.id}.db`, `${a.id}.json`]) {
    assertEquals(await Deno.stat(`${t.dir}/backups/${path}`).catch(() => null), null);
  }
  for (const id of [a.id, "20990101T000000000Z-deadbeef", "..%2Fpalisade"]) {
    assertEquals((await api.get(`/backups/${id}`)).status, 404);
    assertEquals((await api.fetch(`/backups/${id}/download`)).status, 404);
    assertEquals((await api.del(`/backups/${id}`)).status, 404);
  }
  const audit = await t.services.audit.list({ resource_type: "backup", limit: 10, offset: 0 });
  assert(audit.records.some((r) => r.event_type === "backup.downloaded" && r.resource_id === a.id));
  assert(audit.records.some((r) => r.event_type === "backup.deleted" && r.resource_id === a.id));
});

Deno.test("backup routes are for administrators: operators and viewers get 403, anonymous 401", async () => {
  await using t = await startTestServer();
  const admin = apiClient(t.admin, { cookie: await t.login() });
  const id = (await admin.post("/backups/create")).body.id;
  await t.addUser("oper", "operator");
  await t.addUser("view", "viewer");
  for (const user of ["oper", "view"]) {
    const api = apiClient(t.admin, { cookie: await t.login(user, `${user}-password-123`) });
    assertEquals((await api.get("/backups")).status, 403);
    assertEquals((await api.post("/backups/create")).status, 403);
    assertEquals((await api.fetch(`/backups/${id}/download`)).status, 403);
    assertEquals((await api.del(`/backups/${id}`)).status, 403);
  }
  const anon = apiClient(t.admin, {});
  assertEquals((await anon.get("/backups")).status, 401);
  assertEquals((await anon.post("/backups/create")).status, 401);
  assertEquals((await admin.get("/backups")).body.backups.length, 1);
});

Deno.test("PALISADE_BACKUP_KEEP: creating a backup deletes the oldest beyond the limit", async () => {
  await using t = await startTestServer({ env: { PALISADE_BACKUP_KEEP: "2" } });
  const api = apiClient(t.admin, { cookie: await t.login() });
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push((await api.post("/backups/create")).body.id);
  const listed = (await api.get("/backups")).body.backups.map((m: { id: string }) => m.id);
  assertEquals(listed, [ids[2], ids[1]]);
  assertEquals(await Deno.stat(`${t.dir}/backups/${ids[0]}.db`).catch(() => null), null);
});

Deno.test("GET /diagnostics/backups: off with no backup, ok after one, warn when the newest is over a week old", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  const last = async () => (await api.get("/diagnostics/backups")).body.checks[0];
  assertEquals((await last()).status, "off");
  assertEquals((await api.post("/backups/create")).status, 201);
  const made = await last();
  assertEquals([made.status, made.details.count], ["ok", 1]);
  const report = await backupDiagnostics(
    () => t.services.backups.list(),
    Date.parse(made.details.newest) + 8 * 86_400_000,
  );
  assertEquals(report.status, "warn");
});
