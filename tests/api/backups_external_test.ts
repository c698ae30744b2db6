/**
 * Backups on a PostgreSQL store (docs/scaling.md decision 11): with the
 * composition root's `externalBackups()` in place of the SQLite snapshots,
 * every backup route answers 409 saying backups are PostgreSQL's own, and
 * nothing is written. The server still runs on SQLite here (it refuses
 * PostgreSQL until every repository is ported): only the backups are swapped.
 */
import { assert, assertEquals } from "../assert.ts";
import { apiClient } from "../helpers/api_client.ts";
import { startTestServer } from "../helpers/test_server.ts";
import type { Backups } from "../../lib/backup/backups.ts";
import { BACKUPS_EXTERNAL, externalBackups } from "../../lib/backup/external.ts";
import { ConflictError } from "../../lib/errors.ts";

Deno.test("every backup route answers 409 naming pg_dump when backups are PostgreSQL's own", async () => {
  await using t = await startTestServer();
  // The listeners hold the service object itself: its methods are replaced in place.
  Object.assign(t.services.backups as Backups, externalBackups());
  const api = apiClient(t.admin, { cookie: await t.login() });
  const id = "20260101T000000000Z-deadbeef";
  const answers = [
    await api.get("/backups"),
    await api.post("/backups/create"),
    await api.get(`/backups/${id}`),
    await api.post(`/backups/${id}/restore`),
    await api.del(`/backups/${id}`),
  ];
  for (const r of answers) {
    assertEquals(r.status, 409);
    assert(r.body.error.includes("pg_dump"), r.body.error);
  }
  const download = await api.fetch(`/backups/${id}/download`);
  assertEquals(download.status, 409);
  await download.body?.cancel();
  assertEquals(await Deno.stat(`${t.dir}/backups`).catch(() => null), null);
});

Deno.test("the refusal is a ConflictError with the code a client acts on", async () => {
  const err = await externalBackups().create("admin").catch((e) => e);
  assert(err instanceof ConflictError);
  assertEquals(err.code, BACKUPS_EXTERNAL);
  assertEquals(err.code, "backups_external");
});

Deno.test("the backups page says backups are PostgreSQL's own, without the create button or the list", async () => {
  await using t = await startTestServer();
  Object.assign(t.services.backups as Backups, externalBackups());
  const cookie = await t.login();
  const res = await fetch(`${t.admin}/backups`, { headers: { cookie } });
  const html = await res.text();
  assertEquals(res.status, 200);
  assert(html.includes("pg_dump"), "the page names pg_dump");
  assert(!html.includes("Create backup"), "no create button");
});
