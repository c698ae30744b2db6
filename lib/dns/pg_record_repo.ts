/**
 * The `dns_records` table on PostgreSQL: the twin of `SqliteRecordRepo`. The
 * one order that differs: `data()` gives an owner's records in the order they
 * were stored, which SQLite reads from the rowid and PostgreSQL, which has
 * none, from `created_at` and then the id (docs/scaling.md, "DNS").
 */
import type { PageWindow } from "../paging.ts";
import { conflictOnUnique } from "../store/pg/errors.ts";
import type { PgAsync } from "../store/pg/pg_async.ts";
import { type RecordData, type RecordRepo, type RecordRow, recordTaken } from "./record_repo.ts";

const COLUMNS = ["id", "zone", "name", "type", "value", "ttl", "created_at", "updated_at"];

export class PgRecordRepo implements RecordRepo {
  constructor(private readonly db: PgAsync) {}

  /** `sql` for the columns of a whole row. */
  get #cols() {
    return this.db.sql(COLUMNS);
  }

  async list(zone: string): Promise<RecordRow[]> {
    return [
      ...await this.db.sql<RecordRow[]>`
      SELECT ${this.#cols} FROM dns_records WHERE zone = ${zone}
      ORDER BY type <> 'SOA', name, type, value`,
    ];
  }

  async listOfType(zone: string, type: string): Promise<RecordRow[]> {
    return [
      ...await this.db.sql<RecordRow[]>`
      SELECT ${this.#cols} FROM dns_records WHERE zone = ${zone} AND type = ${type}
      ORDER BY name, value`,
    ];
  }

  async page(zone: string, w: PageWindow): Promise<RecordRow[]> {
    // The SOA heads the list; the rest is one range of dns_records_page from the cursor on.
    const soa = w.after === undefined
      ? (await this.db.sql<RecordRow[]>`
        SELECT ${this.#cols} FROM dns_records WHERE zone = ${zone} AND type = 'SOA'`)[0]
      : undefined;
    const head = soa && w.offset === 0 ? [soa] : [];
    if (w.limit !== undefined && head.length >= w.limit) return head;
    const [rank, name, type, id] = (w.after ?? [0, "", "", ""]) as [number, string, string, string];
    const rest = await this.db.sql<RecordRow[]>`
      SELECT ${this.#cols} FROM dns_records
      WHERE zone = ${zone} AND type <> 'SOA'
        AND (name, type, id) > (${rank === 0 ? "" : name}, ${rank === 0 ? "" : type},
                                ${rank === 0 ? "" : id})
      ORDER BY name, type, id
      LIMIT ${w.limit === undefined ? null : w.limit - head.length}
      OFFSET ${soa && w.offset > 0 ? w.offset - 1 : w.offset}`;
    return head.concat(rest);
  }

  async pageOfType(zone: string, type: string, w: PageWindow): Promise<RecordRow[]> {
    const [name, id] = (w.after ?? ["", ""]) as [string, string];
    return [
      ...await this.db.sql<RecordRow[]>`
      SELECT ${this.#cols} FROM dns_records
      WHERE zone = ${zone} AND type = ${type} AND (name, id) > (${name}, ${id})
      ORDER BY name, id LIMIT ${w.limit ?? null} OFFSET ${w.offset}`,
    ];
  }

  async countOfType(zone: string, type: string): Promise<number> {
    const [r] = await this.db.sql<{ n: number }[]>`
      SELECT count(*) AS n FROM dns_records WHERE zone = ${zone} AND type = ${type}`;
    return r.n;
  }

  async data(zone: string): Promise<RecordData[]> {
    return [
      ...await this.db.sql<RecordData[]>`
      SELECT id, name, type, value, ttl FROM dns_records WHERE zone = ${zone} AND type <> 'SOA'
      ORDER BY name, created_at, id`,
    ];
  }

  async get(zone: string, id: string): Promise<RecordRow | undefined> {
    const [r] = await this.db.sql<RecordRow[]>`
      SELECT ${this.#cols} FROM dns_records WHERE zone = ${zone} AND id = ${id}`;
    return r;
  }

  async atName(zone: string, name: string, type?: string): Promise<RecordRow[]> {
    const sql = this.db.sql;
    return [
      ...(type === undefined
        ? await sql<RecordRow[]>`
          SELECT ${this.#cols} FROM dns_records WHERE zone = ${zone} AND name = ${name}
          ORDER BY type, value`
        : await sql<RecordRow[]>`
          SELECT ${this.#cols} FROM dns_records
          WHERE zone = ${zone} AND name = ${name} AND type = ${type} ORDER BY value`),
    ];
  }

  async typesAt(zone: string, name: string): Promise<string[]> {
    const rows = await this.db.sql<{ type: string }[]>`
      SELECT DISTINCT type FROM dns_records WHERE zone = ${zone} AND name = ${name}`;
    return rows.map((r) => r.type);
  }

  async exists(
    zone: string,
    name: string,
    type: string,
    value: string,
    exceptId = "",
  ): Promise<boolean> {
    const rows = await this.db.sql`
      SELECT 1 FROM dns_records WHERE zone = ${zone} AND name = ${name} AND type = ${type}
        AND value = ${value} AND id <> ${exceptId}`;
    return rows.length > 0;
  }

  async rrsetStats(
    zone: string,
    name: string,
    type: string,
    exceptId = "",
  ): Promise<{ count: number; bytes: number }> {
    const [r] = await this.db.sql<{ count: number; bytes: number }[]>`
      SELECT count(*) AS count, coalesce(sum(octet_length(value)), 0) AS bytes FROM dns_records
      WHERE zone = ${zone} AND name = ${name} AND type = ${type} AND id <> ${exceptId}`;
    return { count: r.count, bytes: r.bytes };
  }

  async rrsetValues(zone: string, name: string, type: string, exceptId = ""): Promise<string[]> {
    const rows = await this.db.sql<{ value: string }[]>`
      SELECT value FROM dns_records
      WHERE zone = ${zone} AND name = ${name} AND type = ${type} AND id <> ${exceptId}`;
    return rows.map((r) => r.value);
  }

  async hasNs(zone: string, name: string): Promise<boolean> {
    const rows = await this.db.sql`
      SELECT 1 FROM dns_records WHERE zone = ${zone} AND name = ${name} AND type = 'NS' LIMIT 1`;
    return rows.length > 0;
  }

  async ownerOfType(zone: string, type: string, names: string[]): Promise<string | undefined> {
    if (names.length === 0) return undefined;
    const [r] = await this.db.sql<{ name: string }[]>`
      SELECT name FROM dns_records WHERE zone = ${zone} AND type = ${type}
        AND name = ANY(${names}::text[]) ORDER BY length(name) LIMIT 1`;
    return r?.name;
  }

  async hasBelow(zone: string, name: string): Promise<boolean> {
    const suffix = `.${name}`;
    const rows = await this.db.sql`
      SELECT 1 FROM dns_records WHERE zone = ${zone} AND right(name, ${suffix.length}) = ${suffix}
      LIMIT 1`;
    return rows.length > 0;
  }

  async count(zone: string): Promise<number> {
    const [r] = await this.db.sql<{ n: number }[]>`
      SELECT count(*) AS n FROM dns_records WHERE zone = ${zone}`;
    return r.n;
  }

  async maxDataTtl(zone: string): Promise<number> {
    const [r] = await this.db.sql<{ t: number | null }[]>`
      SELECT max(ttl) AS t FROM dns_records WHERE zone = ${zone} AND type <> 'SOA'`;
    return r?.t ?? 0;
  }

  async insert(r: RecordRow): Promise<void> {
    const t = recordTaken(r);
    const conflict = { message: t.message, field: t.field };
    try {
      await this.db.sql`
        INSERT INTO dns_records (id, zone, name, type, value, ttl, created_at, updated_at)
        VALUES (${r.id}, ${r.zone}, ${r.name}, ${r.type}, ${r.value}, ${r.ttl}, ${r.created_at},
                ${r.updated_at})`;
    } catch (err) {
      throw conflictOnUnique(err, {}, conflict);
    }
  }

  async update(id: string, value: string, ttl: number, updatedAt: number): Promise<void> {
    await this.db.sql`
      UPDATE dns_records SET value = ${value}, ttl = ${ttl}, updated_at = ${updatedAt}
      WHERE id = ${id}`;
  }

  async delete(id: string): Promise<void> {
    await this.db.sql`DELETE FROM dns_records WHERE id = ${id}`;
  }

  async deleteData(zone: string): Promise<number> {
    const r = await this.db.sql`DELETE FROM dns_records WHERE zone = ${zone} AND type <> 'SOA'`;
    return r.count;
  }

  async updateSoa(zone: string, value: string, ttl: number, updatedAt: number): Promise<boolean> {
    const r = await this.db.sql`
      UPDATE dns_records SET value = ${value}, ttl = ${ttl}, updated_at = ${updatedAt}
      WHERE zone = ${zone} AND type = 'SOA'`;
    return r.count > 0;
  }
}
