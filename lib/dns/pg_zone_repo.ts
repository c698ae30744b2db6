/** The `dns_zones` table on PostgreSQL: the twin of `SqliteZoneRepo`. */
import type { PageWindow } from "../paging.ts";
import { conflictOnUnique } from "../store/pg/errors.ts";
import type { PgAsync } from "../store/pg/pg_async.ts";
import {
  CHANGE_COLUMNS,
  toZone,
  type ZoneChange,
  type ZoneDbRow,
  type ZoneListing,
  type ZoneRepo,
  type ZoneRow,
  zoneTaken,
} from "./zone_repo.ts";

/** The channel zone changes are announced on; the payload is the zone's name. */
export const ZONE_CHANNEL = "palisade_dns";

/**
 * Calls `onZone` with the name of each zone another instance (or this one) changed; the client
 * listens on a connection of its own and listens again after a reconnect. Resolves once listening.
 */
export async function listenZoneChanges(
  db: PgAsync,
  onZone: (zone: string) => void,
): Promise<{ unlisten(): Promise<void> }> {
  const sub = await db.store.sql.listen(ZONE_CHANNEL, onZone);
  return { unlisten: () => sub.unlisten() };
}

export class PgZoneRepo implements ZoneRepo {
  constructor(private readonly db: PgAsync) {}

  async get(name: string): Promise<ZoneRow | undefined> {
    const [r] = await this.db.sql<ZoneDbRow[]>`
      SELECT name, admin_email, serial, refresh, retry, expire, minimum, default_ttl, nameservers,
             ns_ttl, mname, dnssec_enabled, created_at, updated_at
      FROM dns_zones WHERE name = ${name}`;
    return r && toZone(r);
  }

  async list(window: PageWindow = { offset: 0 }): Promise<ZoneListing[]> {
    const rows = await this.db.sql<
      { name: string; created_at: number; updated_at: number; n: number }[]
    >`
      SELECT z.name, z.created_at, z.updated_at,
             (SELECT count(*) FROM dns_records r WHERE r.zone = z.name) AS n
      FROM dns_zones z WHERE z.name > ${(window.after?.[0] ?? "") as string}
      ORDER BY z.name LIMIT ${window.limit ?? null} OFFSET ${window.offset}`;
    return rows.map((z) => ({
      name: z.name,
      records_count: z.n,
      created_at: z.created_at,
      updated_at: z.updated_at,
    }));
  }

  async names(): Promise<string[]> {
    const rows = await this.db.sql<{ name: string }[]>`SELECT name FROM dns_zones`;
    return rows.map((r) => r.name);
  }

  async insert(z: ZoneRow): Promise<void> {
    const t = zoneTaken(z.name);
    const conflict = { message: t.message, field: t.field };
    try {
      await this.db.sql`
        INSERT INTO dns_zones (name, admin_email, serial, refresh, retry, expire, minimum,
          default_ttl, nameservers, ns_ttl, mname, dnssec_enabled, created_at, updated_at)
        VALUES (${z.name}, ${z.admin_email}, ${z.serial}, ${z.refresh}, ${z.retry}, ${z.expire},
          ${z.minimum}, ${z.default_ttl}, ${JSON.stringify(z.nameservers)}, ${z.ns_ttl},
          ${z.mname}, ${z.dnssec_enabled ? 1 : 0}, ${z.created_at}, ${z.updated_at})`;
    } catch (err) {
      throw conflictOnUnique(err, {}, conflict);
    }
  }

  async update(name: string, change: ZoneChange): Promise<void> {
    const columns = CHANGE_COLUMNS.filter((c) => change[c] !== undefined);
    if (columns.length === 0) return;
    const values: Record<string, string | number | null> = {};
    for (const c of columns) {
      values[c] = c === "nameservers"
        ? JSON.stringify(change.nameservers)
        : change[c] as string | number | null;
    }
    const sql = this.db.sql;
    await sql`UPDATE dns_zones SET ${sql(values, columns)} WHERE name = ${name}`;
  }

  async setSerial(name: string, serial: number, updatedAt: number): Promise<void> {
    await this.db.sql`
      UPDATE dns_zones SET serial = ${serial}, updated_at = ${updatedAt} WHERE name = ${name}`;
  }

  async setDnssecEnabled(name: string, enabled: boolean): Promise<void> {
    await this.db.sql`
      UPDATE dns_zones SET dnssec_enabled = ${enabled ? 1 : 0} WHERE name = ${name}`;
  }

  async zskRotationDays(name: string): Promise<number | null> {
    const [r] = await this.db.sql<{ d: number | null }[]>`
      SELECT zsk_rotation_days AS d FROM dns_zones WHERE name = ${name}`;
    return r?.d ?? null;
  }

  async setZskRotationDays(name: string, days: number | null): Promise<void> {
    await this.db.sql`UPDATE dns_zones SET zsk_rotation_days = ${days} WHERE name = ${name}`;
  }

  async zskRotations(): Promise<{ zone: string; days: number }[]> {
    return [
      ...await this.db.sql<{ zone: string; days: number }[]>`
        SELECT name AS zone, zsk_rotation_days AS days FROM dns_zones
        WHERE dnssec_enabled = 1 AND zsk_rotation_days IS NOT NULL ORDER BY name`,
    ];
  }

  async delete(name: string): Promise<void> {
    await this.db.sql`DELETE FROM dns_zones WHERE name = ${name}`;
  }

  async serials(): Promise<{ name: string; serial: number }[]> {
    const rows = await this.db.sql<{ name: string; serial: number }[]>`
      SELECT name, serial FROM dns_zones ORDER BY name`;
    return rows.map((r) => ({ name: r.name, serial: r.serial }));
  }

  async announce(name: string): Promise<void> {
    // Inside a transaction PostgreSQL delivers it at commit, and not at all on a rollback.
    await this.db.sql`SELECT pg_notify(${ZONE_CHANNEL}, ${name})`;
  }

  async counts(): Promise<{ zones: number; records: number }> {
    const [r] = await this.db.sql<{ zones: number; records: number }[]>`
      SELECT (SELECT count(*) FROM dns_zones) AS zones, (SELECT count(*) FROM dns_records) AS records`;
    return { zones: r.zones, records: r.records };
  }
}
