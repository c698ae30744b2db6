/**
 * Every SQL statement of backups: the online snapshot of the live store, the
 * checks and counts of a backup file (read through its own read-only
 * connection), and the restore of a file's rows into the live store.
 */
import { DatabaseSync } from "node:sqlite";
import type { Store } from "../store/store.ts";

/** What a backup file says about itself. */
export interface BackupFileFacts {
  /** `PRAGMA user_version`: the schema version of the file. */
  schemaVersion: number;
  /** Rows per table (SQLite's own tables left out). */
  counts: Record<string, number>;
}

/**
 * The audit trail is append-only (triggers refuse updates and deletes) and a
 * restore does not rewind it: records written after the snapshot stay.
 */
export const KEPT_ON_RESTORE = ["audit"];

export interface BackupRepo {
  /** Writes a consistent copy of the live store to `dest` (which must not exist). */
  snapshot(dest: string): void;
  /** The schema version and row counts of the file at `path`. */
  facts(path: string): BackupFileFacts;
  /** `PRAGMA integrity_check` of the file at `path`: "ok" or SQLite's first complaints. */
  integrity(path: string): string;
  /**
   * Replaces every row of the live store (but the tables of KEPT_ON_RESTORE)
   * with the rows of the file at `path`, in one transaction. The file must
   * have the live store's schema (migrate it first).
   */
  restoreRows(path: string): void;
}

/** Names of the ordinary tables of a database, SQLite's own left out. */
function tablesOf(db: DatabaseSync, schema = "main"): string[] {
  const rows = db.prepare(
    `SELECT name FROM ${schema}.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`,
  ).all() as { name: string }[];
  return rows.map((r) => r.name);
}

/**
 * Tables that triggers write into (e.g. the IXFR journal's pending changes, written by the
 * triggers on dns_records): deleting and copying the other tables fires those triggers, so a
 * restore copies these again once the others are in, to end with exactly the backup's rows.
 */
function triggerTargets(db: DatabaseSync): Set<string> {
  const rows = db.prepare("SELECT sql FROM main.sqlite_master WHERE type = 'trigger'").all() as {
    sql: string;
  }[];
  const out = new Set<string>();
  const write = /\b(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|DELETE\s+FROM|UPDATE)\s+"?(\w+)"?/gi;
  for (const { sql } of rows) {
    // The body only: the head names the table the trigger watches ("AFTER UPDATE ON t").
    const body = sql.slice(sql.search(/\bBEGIN\b/i));
    for (const m of body.matchAll(write)) out.add(m[1]);
  }
  return out;
}

/** SQLite identifiers come from the schema itself; quoting keeps odd names whole. */
const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Opens a backup file read-only for its own checks, and always closes it. */
function withFile<T>(path: string, fn: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

export class SqliteBackupRepo implements BackupRepo {
  constructor(private readonly store: Store) {}

  snapshot(dest: string): void {
    this.store.snapshot(dest);
  }

  facts(path: string): BackupFileFacts {
    return withFile(path, (db) => {
      const version = db.prepare("PRAGMA user_version").get() as { user_version: number };
      const counts: Record<string, number> = {};
      for (const t of tablesOf(db)) {
        const row = db.prepare(`SELECT COUNT(*) AS n FROM ${quote(t)}`).get() as { n: number };
        counts[t] = Number(row.n);
      }
      return { schemaVersion: Number(version.user_version), counts };
    });
  }

  integrity(path: string): string {
    try {
      return withFile(path, (db) => {
        const rows = db.prepare("PRAGMA integrity_check").all() as { integrity_check: string }[];
        return rows.map((r) => r.integrity_check).join("; ");
      });
    } catch (err) {
      // A file too damaged to open or read is as bad as one that fails the check.
      return (err as Error).message;
    }
  }

  restoreRows(path: string): void {
    const db = this.store.db;
    db.prepare("ATTACH DATABASE ? AS restored").run(path);
    try {
      this.store.tx(() => {
        // Rows go in table by table; references are checked once, at commit.
        db.exec("PRAGMA defer_foreign_keys = ON");
        const tables = tablesOf(db).filter((t) => !KEPT_ON_RESTORE.includes(t));
        for (const t of tables) db.exec(`DELETE FROM main.${quote(t)}`);
        for (const t of tables) this.#copy(db, t);
        const written = triggerTargets(db);
        for (const t of tables.filter((t) => written.has(t))) {
          db.exec(`DELETE FROM main.${quote(t)}`);
          this.#copy(db, t);
        }
        this.#copySequences(db);
      });
    } finally {
      db.exec("DETACH DATABASE restored");
    }
  }

  /** Copies one table by column name (table_info lists no generated columns). */
  #copy(db: DatabaseSync, table: string): void {
    const cols = (db.prepare(`PRAGMA main.table_info(${quote(table)})`).all() as {
      name: string;
    }[]).map((c) => quote(c.name)).join(", ");
    db.exec(
      `INSERT INTO main.${quote(table)} (${cols}) SELECT ${cols} FROM restored.${quote(table)}`,
    );
  }

  /** AUTOINCREMENT counters follow their tables (those kept keep theirs). */
  #copySequences(db: DatabaseSync): void {
    const has = (schema: string) =>
      db.prepare(
        `SELECT 1 FROM ${schema}.sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'`,
      ).get() !== undefined;
    if (!has("main") || !has("restored")) return;
    const kept = KEPT_ON_RESTORE.map((t) => `'${t}'`).join(", ");
    db.exec(`DELETE FROM main.sqlite_sequence WHERE name NOT IN (${kept})`);
    db.exec(
      `INSERT INTO main.sqlite_sequence (name, seq) SELECT name, seq FROM restored.sqlite_sequence WHERE name NOT IN (${kept})`,
    );
  }
}
