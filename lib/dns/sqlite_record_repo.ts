/** The statements of `dns_records` on SQLite, synchronous; `SqliteRecordRepo` runs them. */
import type { PageWindow } from "../paging.ts";
import type { Store } from "../store/store.ts";
import type { RecordData, RecordRow, RecordStatements } from "./record_repo.ts";

export class SqliteRecordStatements implements RecordStatements {
  constructor(private readonly store: Store) {}

  list(zone: string): RecordRow[] {
    return this.store.all<RecordRow>(
      "SELECT * FROM dns_records WHERE zone = ? ORDER BY type <> 'SOA', name, type, value",
      zone,
    );
  }

  listOfType(zone: string, type: string): RecordRow[] {
    return this.store.all<RecordRow>(
      "SELECT * FROM dns_records WHERE zone = ? AND type = ? ORDER BY name, value",
      zone,
      type,
    );
  }

  page(zone: string, w: PageWindow): RecordRow[] {
    // The SOA heads the list; the rest is one range of dns_records_page from the cursor on.
    const soa = w.after === undefined
      ? this.store.get<RecordRow>(
        "SELECT * FROM dns_records WHERE zone = ? AND type = 'SOA'",
        zone,
      )
      : undefined;
    const head = soa && w.offset === 0 ? [soa] : [];
    if (w.limit !== undefined && head.length >= w.limit) return head;
    const [rank, name, type, id] = w.after ?? [0, "", "", ""];
    const rest = this.store.all<RecordRow>(
      `SELECT * FROM dns_records WHERE zone = ? AND type <> 'SOA' AND (name, type, id) > (?, ?, ?)
       ORDER BY name, type, id LIMIT ? OFFSET ?`,
      zone,
      rank === 0 ? "" : name,
      rank === 0 ? "" : type,
      rank === 0 ? "" : id,
      w.limit === undefined ? -1 : w.limit - head.length,
      soa && w.offset > 0 ? w.offset - 1 : w.offset,
    );
    return head.length ? head.concat(rest) : rest;
  }

  pageOfType(zone: string, type: string, w: PageWindow): RecordRow[] {
    const [name, id] = w.after ?? ["", ""];
    return this.store.all<RecordRow>(
      `SELECT * FROM dns_records WHERE zone = ? AND type = ? AND (name, id) > (?, ?)
       ORDER BY name, id LIMIT ? OFFSET ?`,
      zone,
      type,
      name,
      id,
      w.limit ?? -1,
      w.offset,
    );
  }

  countOfType(zone: string, type: string): number {
    return this.store.get<{ n: number }>(
      "SELECT count(*) AS n FROM dns_records WHERE zone = ? AND type = ?",
      zone,
      type,
    )!.n;
  }

  /**
   * Every record of a zone but the SOA, by owner and then in the order they were stored: the
   * order answers give an RRset's records in (it used to follow from an index; now it is said).
   */
  data(zone: string): RecordData[] {
    return this.store.all<RecordData>(
      "SELECT id, name, type, value, ttl FROM dns_records WHERE zone = ? AND type <> 'SOA' ORDER BY name, rowid",
      zone,
    );
  }

  get(zone: string, id: string): RecordRow | undefined {
    return this.store.get<RecordRow>(
      "SELECT * FROM dns_records WHERE zone = ? AND id = ?",
      zone,
      id,
    );
  }

  atName(zone: string, name: string, type?: string): RecordRow[] {
    return type === undefined
      ? this.store.all<RecordRow>(
        "SELECT * FROM dns_records WHERE zone = ? AND name = ? ORDER BY type, value",
        zone,
        name,
      )
      : this.store.all<RecordRow>(
        "SELECT * FROM dns_records WHERE zone = ? AND name = ? AND type = ? ORDER BY value",
        zone,
        name,
        type,
      );
  }

  typesAt(zone: string, name: string): string[] {
    return this.store.all<{ type: string }>(
      "SELECT DISTINCT type FROM dns_records WHERE zone = ? AND name = ?",
      zone,
      name,
    ).map((r) => r.type);
  }

  exists(zone: string, name: string, type: string, value: string, exceptId?: string): boolean {
    const row = exceptId === undefined
      ? this.store.get(
        "SELECT 1 FROM dns_records WHERE zone = ? AND name = ? AND type = ? AND value = ?",
        zone,
        name,
        type,
        value,
      )
      : this.store.get(
        "SELECT 1 FROM dns_records WHERE zone = ? AND name = ? AND type = ? AND value = ? AND id <> ?",
        zone,
        name,
        type,
        value,
        exceptId,
      );
    return row !== undefined;
  }

  rrsetStats(
    zone: string,
    name: string,
    type: string,
    exceptId = "",
  ): { count: number; bytes: number } {
    return this.store.get<{ count: number; bytes: number }>(
      "SELECT count(*) AS count, coalesce(sum(length(CAST(value AS BLOB))), 0) AS bytes FROM dns_records WHERE zone = ? AND name = ? AND type = ? AND id <> ?",
      zone,
      name,
      type,
      exceptId,
    )!;
  }

  rrsetValues(zone: string, name: string, type: string, exceptId = ""): string[] {
    return this.store.all<{ value: string }>(
      "SELECT value FROM dns_records WHERE zone = ? AND name = ? AND type = ? AND id <> ?",
      zone,
      name,
      type,
      exceptId,
    ).map((r) => r.value);
  }

  hasNs(zone: string, name: string): boolean {
    return this.store.get(
      "SELECT 1 FROM dns_records WHERE zone = ? AND name = ? AND type = 'NS'",
      zone,
      name,
    ) !== undefined;
  }

  ownerOfType(zone: string, type: string, names: string[]): string | undefined {
    if (names.length === 0) return undefined;
    return this.store.get<{ name: string }>(
      "SELECT name FROM dns_records WHERE zone = ? AND type = ? AND name IN (SELECT value FROM json_each(?)) ORDER BY length(name) LIMIT 1",
      zone,
      type,
      JSON.stringify(names),
    )?.name;
  }

  hasBelow(zone: string, name: string): boolean {
    const suffix = `.${name}`;
    return this.store.get(
      "SELECT 1 FROM dns_records WHERE zone = ? AND substr(name, -?) = ? LIMIT 1",
      zone,
      suffix.length,
      suffix,
    ) !== undefined;
  }

  count(zone: string): number {
    return this.store.get<{ n: number }>(
      "SELECT count(*) AS n FROM dns_records WHERE zone = ?",
      zone,
    )!.n;
  }

  maxDataTtl(zone: string): number {
    return this.store.get<{ t: number | null }>(
      "SELECT max(ttl) AS t FROM dns_records WHERE zone = ? AND type <> 'SOA'",
      zone,
    )?.t ?? 0;
  }

  insert(r: RecordRow): void {
    this.store.run(
      "INSERT INTO dns_records (id, zone, name, type, value, ttl, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      r.id,
      r.zone,
      r.name,
      r.type,
      r.value,
      r.ttl,
      r.created_at,
      r.updated_at,
    );
  }

  update(id: string, value: string, ttl: number, updatedAt: number): void {
    this.store.run(
      "UPDATE dns_records SET value = ?, ttl = ?, updated_at = ? WHERE id = ?",
      value,
      ttl,
      updatedAt,
      id,
    );
  }

  delete(id: string): void {
    this.store.run("DELETE FROM dns_records WHERE id = ?", id);
  }

  deleteData(zone: string): number {
    return this.store.run("DELETE FROM dns_records WHERE zone = ? AND type <> 'SOA'", zone).changes;
  }

  updateSoa(zone: string, value: string, ttl: number, updatedAt: number): boolean {
    return this.store.run(
      "UPDATE dns_records SET value = ?, ttl = ?, updated_at = ? WHERE zone = ? AND type = 'SOA'",
      value,
      ttl,
      updatedAt,
      zone,
    ).changes > 0;
  }
}
