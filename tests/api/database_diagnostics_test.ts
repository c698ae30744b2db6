/**
 * The database checks on files of their own: a corrupted copy cannot be made
 * of the live store, so the checks run against a small file damaged by hand.
 */
import { assert, assertEquals } from "../assert.ts";
import { tempStore } from "../helpers/temp_store.ts";
import { rawExec } from "../helpers/raw_sql.ts";
import { Store } from "../../lib/store/store.ts";
import { databaseDiagnostics } from "../../lib/system/diagnostics.ts";
import { SqliteSystemRepo } from "../../lib/system/system_repo.ts";
import { SqliteAsync } from "../../lib/store/sqlite_async.ts";

const statuses = (r: { checks: { name: string; status: string }[] }) =>
  Object.fromEntries(r.checks.map((c) => [c.name, c.status]));

Deno.test("database diagnostics: a healthy store passes, a damaged file fails integrity", async () => {
  await using t = await tempStore();
  const healthy = await databaseDiagnostics(
    new SqliteSystemRepo(SqliteAsync.of(t.store)),
    t.store.version,
  );
  assertEquals(healthy.status, "ok");

  // A table spread over many pages, then its pages overwritten in the file.
  rawExec(t.store, "CREATE TABLE filler (id INTEGER PRIMARY KEY, body TEXT)");
  rawExec(t.store, "CREATE INDEX filler_body ON filler (body)");
  for (let i = 0; i < 400; i++) {
    rawExec(t.store, "INSERT INTO filler (body) VALUES (?)", `${"x".repeat(200)}${i}`);
  }
  t.store.close();
  const path = `${t.dir}/palisade.db`;
  const file = await Deno.open(path, { read: true, write: true });
  const size = (await file.stat()).size;
  // Leave page 1 (the header and schema) alone; scribble over the last pages.
  await file.seek(size - 8 * 4096, Deno.SeekMode.Start);
  await file.write(new Uint8Array(4 * 4096).fill(0x5a));
  file.close();

  const damaged = Store.open(path);
  try {
    const report = await databaseDiagnostics(
      new SqliteSystemRepo(SqliteAsync.of(damaged)),
      damaged.version,
    );
    assertEquals(report.status, "fail");
    assertEquals(statuses(report).integrity, "fail");
    assertEquals(statuses(report).query, "ok");
  } finally {
    damaged.close();
  }
});

Deno.test("database diagnostics: an unexpected schema version fails, a WAL past the limit warns", async () => {
  const repo = {
    ping: () => Promise.resolve(),
    probe: {
      engine: "sqlite" as const,
      journalMode: () => "wal",
      quickCheck: () => [],
      walBytes: () => 300 * 1024 * 1024,
    },
    schemaVersion: () => Promise.resolve(7),
  };
  const report = await databaseDiagnostics(repo, 9);
  assertEquals(statuses(report), {
    query: "ok",
    journal_mode: "ok",
    integrity: "ok",
    wal_size: "warn",
    schema_version: "fail",
  });
  assert(report.checks[4].message.includes("expects 9"));
});
