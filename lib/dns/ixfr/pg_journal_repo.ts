/**
 * The IXFR journal on PostgreSQL: the twin of `SqliteJournalRepo`. The
 * pending rows are written by the PL/pgSQL triggers of the baseline
 * (lib/store/pg/migrations/0001_baseline_dns.ts).
 */
import { Buffer } from "node:buffer";
import type { PgAsync } from "../../store/pg/pg_async.ts";
import type { RecordData } from "../record_repo.ts";
import {
  type EntryRow,
  JOURNAL_DEFAULTS,
  type JournalEntry,
  type JournalLimits,
  type JournalRepo,
  type JournalVersion,
  type PendingChange,
} from "./journal_repo.ts";

export class PgJournalRepo implements JournalRepo {
  constructor(private readonly db: PgAsync, readonly limits: JournalLimits = JOURNAL_DEFAULTS) {}

  async takePending(zone: string): Promise<PendingChange[]> {
    const rows = await this.db.sql<PendingChange[]>`
      SELECT op, rid, name, type, ttl, value FROM dns_journal_pending WHERE zone = ${zone}
      ORDER BY id`;
    if (rows.length) await this.db.sql`DELETE FROM dns_journal_pending WHERE zone = ${zone}`;
    return [...rows];
  }

  async rrsetRows(zone: string, name: string, type: string): Promise<RecordData[]> {
    return [
      ...await this.db.sql<RecordData[]>`
      SELECT id, name, type, value, ttl FROM dns_records
      WHERE zone = ${zone} AND name = ${name} AND type = ${type}`,
    ];
  }

  async append(
    zone: string,
    from: number,
    to: number,
    entries: JournalEntry[],
    createdAt: number,
  ): Promise<void> {
    if (entries.length === 0) return;
    // One statement: identities are given in the order of the rows, which is the transfer order.
    const rows = entries.map((e, seq) => ({
      zone,
      serial_from: from,
      serial_to: to,
      seq,
      op: e.op,
      name: e.name,
      type: e.type,
      ttl: e.ttl,
      rdata: Buffer.from(e.rdata.buffer, e.rdata.byteOffset, e.rdata.byteLength),
      created_at: createdAt,
    }));
    const sql = this.db.sql;
    await sql`INSERT INTO dns_journal ${sql(rows)}`;
  }

  async versions(zone: string): Promise<JournalVersion[]> {
    return [
      ...await this.db.sql<JournalVersion[]>`
      SELECT serial_from, serial_to, MIN(id) AS first, MAX(id) AS last, COUNT(*) AS rows,
             MIN(created_at) AS created_at
        FROM dns_journal WHERE zone = ${zone} GROUP BY serial_from, serial_to ORDER BY first`,
    ];
  }

  async entries(zone: string, first: number, last: number): Promise<JournalEntry[]> {
    const rows = await this.db.sql<EntryRow[]>`
      SELECT op, name, type, ttl, rdata FROM dns_journal
      WHERE zone = ${zone} AND id BETWEEN ${first} AND ${last} ORDER BY id`;
    return rows.map((r) => ({ ...r, rdata: new Uint8Array(r.rdata) }));
  }

  async dropBefore(zone: string, first: number): Promise<void> {
    await this.db.sql`DELETE FROM dns_journal WHERE zone = ${zone} AND id < ${first}`;
  }

  async clear(zone: string): Promise<void> {
    await this.db.sql`DELETE FROM dns_journal WHERE zone = ${zone}`;
  }
}
