/**
 * The system repository (lib/system/system_repo.ts) on SQLite and
 * PostgreSQL: the overview's counts, the schema version each engine
 * records, and the database diagnostics built over it (on PostgreSQL the
 * server's version and its connections instead of SQLite's file checks).
 */
import { assert, assertEquals } from "../assert.ts";
import { PgSystemRepo } from "../../lib/system/pg_system_repo.ts";
import { SqliteSystemRepo, type SystemRepo } from "../../lib/system/system_repo.ts";
import { databaseDiagnostics } from "../../lib/system/diagnostics.ts";
import { migrations } from "../../lib/store/migrations/mod.ts";
import { pgMigrations } from "../../lib/store/pg/migrations/mod.ts";
import { type Engine, repoContract } from "./engines.ts";
import { seedOwners } from "./owners.ts";
import { SqliteUserRepo, type UserRepo } from "../../lib/auth/user_repo.ts";
import { PgUserRepo } from "../../lib/auth/pg_user_repo.ts";

const repoOf = (e: Engine): SystemRepo =>
  e.pick<SystemRepo>({
    sqlite: (db) => new SqliteSystemRepo(db),
    postgres: (db) => new PgSystemRepo(db),
  });

const latest = (e: Engine) =>
  Math.max(...(e.name === "sqlite" ? migrations : pgMigrations).map((m) => m.version));

repoContract("SystemRepo", {
  "counts users, live sessions only, tokens and audit records": async (e) => {
    const repo = repoOf(e);
    assertEquals(await repo.counts(1000), {
      users: 0,
      activeSessions: 0,
      apiTokens: 0,
      auditRecords: 0,
    });
    await seedOwners(e.pick<UserRepo>({
      sqlite: (db) => new SqliteUserRepo(db),
      postgres: (db) => new PgUserRepo(db),
    }));
    const now = 1_700_000_000_000;
    await e.raw(
      "INSERT INTO sessions (id, secret_hash, user_id, created_at, expires_at, last_seen) VALUES (?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?)",
      ...["s-live", "h1", "u1", now, now + 1, now],
      ...["s-gone", "h2", "u1", now, now, now],
    );
    await e.raw(
      "INSERT INTO audit (at, actor, event_type, message, resource_type, resource_id) VALUES (?, ?, ?, ?, ?, ?)",
      now,
      "alice",
      "x.y",
      "m",
      "r",
      "1",
    );
    const counts = await repo.counts(now);
    assertEquals(counts.users, 2);
    assertEquals(counts.activeSessions, 1, "a session expiring at now is not live");
    assertEquals(counts.auditRecords, 1);
  },

  "the schema version is the engine's latest migration, and the diagnostics pass": async (e) => {
    const repo = repoOf(e);
    assertEquals(await repo.schemaVersion(), latest(e));
    const report = await databaseDiagnostics(repo, latest(e));
    const names = report.checks.map((c) => c.name);
    assertEquals(report.checks.find((c) => c.name === "schema_version")?.status, "ok");
    assertEquals(
      names,
      e.name === "sqlite"
        ? ["query", "journal_mode", "integrity", "wal_size", "schema_version"]
        : ["query", "server_version", "connections", "schema_version"],
    );
    if (e.name === "postgres") {
      const conn = report.checks[2].details as { open: number; max: number };
      assert(conn.open >= 1 && conn.max >= conn.open, JSON.stringify(conn));
      assert(/^PostgreSQL \d+/.test(report.checks[1].message), report.checks[1].message);
    }
    const stale = await databaseDiagnostics(repo, latest(e) + 1);
    assertEquals(stale.status, "fail");
  },
});
