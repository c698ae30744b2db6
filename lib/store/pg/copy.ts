/**
 * `deno task db:copy`: every row of a SQLite store into a PostgreSQL
 * database, in one PostgreSQL transaction, so a failed or refused copy
 * leaves the target as it was. The target is migrated first; its tables
 * must then be empty unless `force` (which empties them inside the same
 * transaction). Tables go in foreign-key order, in batched multi-row
 * inserts; blobs become BYTEA, integers (0/1 flags included) stay numbers;
 * identity sequences move past the copied ids; each table's row count is
 * checked against the source before the commit.
 */
import { Buffer } from "node:buffer";
import { DatabaseSync } from "node:sqlite";
import type postgres from "postgres";
import { ConflictError, ValidationError } from "../../errors.ts";
import { migrations as sqliteMigrations } from "../migrations/mod.ts";
import {
  dependencyOrder,
  PG_ONLY_TABLES,
  pgTables,
  sqliteTables,
  type TableInfo,
} from "./catalog.ts";
import { PgStore, type TxSql } from "./pg_store.ts";

export interface CopyOptions {
  from: string;
  to: string;
  force?: boolean;
  /** Rows per INSERT at most (fewer for wide tables: 30,000 parameters per statement). */
  batchRows?: number;
}

export interface CopyReport {
  tables: { name: string; rows: number }[];
}

/** Tables whose triggers must not fire on copied rows (the IXFR journal's: it is copied as is). */
const TRIGGERED = ["dns_zones", "dns_records"];
const MAX_PARAMS = 30_000;

/** Integers as numbers, blobs as Buffers (what the client sends as BYTEA). */
function pgValue(v: unknown): postgres.ParameterOrJSON<never> {
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  if (typeof v === "bigint") return Number(v);
  return v as postgres.ParameterOrJSON<never>;
}

function openSource(path: string): DatabaseSync {
  try {
    Deno.statSync(path);
  } catch {
    throw new ValidationError(`No SQLite store at "${path}"`, "from");
  }
  const db = new DatabaseSync(path, { readOnly: true });
  const version = Number(
    (db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version,
  );
  const latest = sqliteMigrations.at(-1)!.version;
  if (version !== latest) {
    db.close();
    throw new ValidationError(
      `The SQLite store "${path}" is at schema version ${version}, expected ${latest} (start this Palisade on it once to migrate it)`,
      "from",
    );
  }
  return db;
}

/** Checks that both engines have the same columns for every table to copy. */
function matchSchemas(source: TableInfo[], target: TableInfo[]): void {
  const targetByName = new Map(target.map((t) => [t.name, t]));
  for (const t of source) {
    const other = targetByName.get(t.name);
    const missing = t.columns.filter((c) => !other?.columns.includes(c));
    if (!other || missing.length) {
      throw new ValidationError(
        `The PostgreSQL schema lacks "${t.name}"${
          missing.length ? ` (${missing.join(", ")})` : ""
        }`,
        "to",
      );
    }
  }
}

async function nonEmptyTables(sql: TxSql, tables: TableInfo[]): Promise<string[]> {
  const out: string[] = [];
  for (const t of tables) {
    const rows = await sql`SELECT 1 FROM ${sql(t.name)} LIMIT 1`;
    if (rows.length) out.push(t.name);
  }
  return out;
}

async function copyTable(
  db: DatabaseSync,
  sql: TxSql,
  table: TableInfo,
  batchRows: number,
): Promise<number> {
  const perBatch = Math.max(1, Math.min(batchRows, Math.floor(MAX_PARAMS / table.columns.length)));
  const cols = table.columns.map((c) => `"${c.replaceAll('"', '""')}"`).join(", ");
  const stmt = db.prepare(`SELECT ${cols} FROM "${table.name}"`);
  let batch: Record<string, postgres.ParameterOrJSON<never>>[] = [];
  let copied = 0;
  const flush = async () => {
    if (!batch.length) return;
    await sql`INSERT INTO ${sql(table.name)} ${sql(batch, table.columns)}`;
    copied += batch.length;
    batch = [];
  };
  for (const row of stmt.iterate() as Iterable<Record<string, unknown>>) {
    const out: Record<string, postgres.ParameterOrJSON<never>> = {};
    for (const c of table.columns) out[c] = pgValue(row[c]);
    batch.push(out);
    if (batch.length >= perBatch) await flush();
  }
  await flush();
  return copied;
}

/** Moves every identity sequence past the largest copied id. */
async function resetSequences(sql: TxSql): Promise<void> {
  const identities = await sql<{ table_name: string; column_name: string }[]>`
    SELECT table_name, column_name FROM information_schema.columns
     WHERE table_schema = current_schema() AND is_identity = 'YES'`;
  for (const { table_name: t, column_name: c } of identities) {
    await sql`SELECT setval(pg_get_serial_sequence(${t}, ${c}),
                coalesce((SELECT max(${sql(c)}) FROM ${sql(t)}), 0) + 1, false)`;
  }
}

async function copyAll(db: DatabaseSync, sql: TxSql, tables: TableInfo[], o: CopyOptions) {
  const busy = await nonEmptyTables(sql, tables);
  if (busy.length && !o.force) {
    throw new ConflictError(
      `The PostgreSQL database is not empty (${busy.join(", ")}); pass --force to replace its rows`,
      { field: "to", code: "target_not_empty" },
    );
  }
  if (busy.length) {
    await sql`TRUNCATE ${sql(tables.map((t) => t.name))} RESTART IDENTITY CASCADE`;
  }
  for (const t of TRIGGERED) await sql`ALTER TABLE ${sql(t)} DISABLE TRIGGER USER`;
  const report: CopyReport = { tables: [] };
  for (const t of tables) {
    const rows = await copyTable(db, sql, t, o.batchRows ?? 1000);
    const expected = Number(
      (db.prepare(`SELECT count(*) AS n FROM "${t.name}"`).get() as { n: number }).n,
    );
    const [{ n }] = await sql<{ n: number }[]>`SELECT count(*) AS n FROM ${sql(t.name)}`;
    if (rows !== expected || n !== expected) {
      throw new Error(`Row count of "${t.name}" differs: ${expected} in SQLite, ${n} copied`);
    }
    report.tables.push({ name: t.name, rows: n });
  }
  for (const t of TRIGGERED) await sql`ALTER TABLE ${sql(t)} ENABLE TRIGGER USER`;
  await resetSequences(sql);
  return report;
}

/** Copies the SQLite store at `from` into the PostgreSQL database at `to`. */
export async function copySqliteToPg(o: CopyOptions): Promise<CopyReport> {
  const db = openSource(o.from);
  let store: PgStore | undefined;
  try {
    store = await PgStore.open({ url: o.to, poolSize: 1, statementTimeoutMs: 0 });
    const source = sqliteTables(db);
    const target = (await pgTables(store.sql)).filter((t) => !PG_ONLY_TABLES.includes(t.name));
    matchSchemas(source, target);
    const ordered = dependencyOrder(source);
    return await store.sql.begin((sql) => copyAll(db, sql, ordered, o)) as CopyReport;
  } finally {
    db.close();
    await store?.close();
  }
}
