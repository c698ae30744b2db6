/**
 * The `peers` table on PostgreSQL: the twin of `SqlitePeerRepo`. The listing
 * comes back as arrays (`.values()`), the key flags as 1 or 0 (`::int`), and
 * the name search folds ASCII letters with `lower()` as SQLite's LIKE does.
 */
import type { PgAsync } from "../store/pg/pg_async.ts";
import type { Sql, TxSql } from "../store/pg/pg_store.ts";
import {
  type HostPeer,
  likePattern,
  listed,
  type ListedPeer,
  type ListedRow,
  type PeerChange,
  type PeerFilter,
  type PeerIdentity,
  type PeerRepo,
  type PeerRow,
  type PeerStatus,
  type PeerSummary,
  type PeerTuple,
  type PeerWithInterface,
} from "./peer_repo.ts";

type Filter = Omit<PeerFilter, "limit" | "offset" | "after">;

/** The filter's conditions as one fragment (`TRUE` when there is none). */
function where(sql: Sql | TxSql, f: Filter) {
  const iface = f.interface_id ? sql`AND p.interface_id = ${f.interface_id}` : sql``;
  const status = f.status ? sql`AND p.status = ${f.status}` : sql``;
  // `\\` in the template is one backslash in the SQL: the escape character of the pattern.
  const search = f.search
    ? sql`AND lower(p.name) LIKE lower(${likePattern(f.search)}) ESCAPE '\\'`
    : sql``;
  return sql`TRUE ${iface} ${status} ${search}`;
}

export class PgPeerRepo implements PeerRepo {
  constructor(private readonly db: PgAsync) {}

  async listTuples(filter: PeerFilter): Promise<PeerTuple[]> {
    const sql = this.db.sql;
    const [n, p, id] = filter.after ?? ["", "", ""];
    const after = filter.after ? sql`AND (i.name, p.name, p.id) > (${n}, ${p}, ${id})` : sql``;
    const rows = await sql`
      SELECT p.id, p.interface_id, p.name, p.public_key, p.address, p.allowed_ips,
        p.dns, p.keepalive, p.mtu, p.profile, p.status, (p.private_key IS NOT NULL)::int,
        (p.preshared_key IS NOT NULL)::int, p.created_at, p.updated_at
      FROM peers p JOIN interfaces i ON i.id = p.interface_id
      WHERE ${where(sql, filter)} ${after}
      ORDER BY i.name, p.name, p.id LIMIT ${filter.limit ?? null} OFFSET ${filter.offset ?? 0}`
      .values();
    return rows as unknown as PeerTuple[];
  }

  async count(filter: Filter): Promise<number> {
    const sql = this.db.sql;
    const [{ n }] = await sql<{ n: number }[]>`
      SELECT count(*) AS n FROM peers p WHERE ${where(sql, filter)}`;
    return n;
  }

  async #listed(byPeer: string | null, byInterface: string | null): Promise<ListedPeer[]> {
    const sql = this.db.sql;
    const rows = await sql<ListedRow[]>`
      SELECT p.id, p.interface_id, i.name AS interface_name, i.address_v4 AS interface_address,
        p.name, p.public_key, p.address, p.allowed_ips, p.dns, p.keepalive, p.mtu, p.profile,
        p.status, (p.private_key IS NOT NULL)::int AS has_private_key,
        (p.preshared_key IS NOT NULL)::int AS has_preshared_key, p.created_at, p.updated_at
      FROM peers p JOIN interfaces i ON i.id = p.interface_id
      WHERE ${byPeer === null ? sql`p.interface_id = ${byInterface}` : sql`p.id = ${byPeer}`}`;
    return rows.map(listed);
  }

  async getListed(id: string): Promise<ListedPeer | undefined> {
    return (await this.#listed(id, null))[0];
  }

  async listedOf(interfaceId: string): Promise<ListedPeer[]> {
    return await this.#listed(null, interfaceId);
  }

  async get(id: string): Promise<PeerRow | undefined> {
    const [row] = await this.db.sql<PeerRow[]>`SELECT * FROM peers WHERE id = ${id}`;
    return row;
  }

  async getWithInterfaceName(
    id: string,
  ): Promise<(PeerWithInterface) | undefined> {
    const [row] = await this.db.sql<(PeerWithInterface)[]>`
      SELECT p.*, i.name AS interface_name FROM peers p JOIN interfaces i ON i.id = p.interface_id
      WHERE p.id = ${id}`;
    return row;
  }

  async namesAndAddresses(interfaceId: string): Promise<{ name: string; address: string }[]> {
    return [
      ...await this.db.sql<{ name: string; address: string }[]>`
        SELECT name, address FROM peers WHERE interface_id = ${interfaceId}`,
    ];
  }

  async summariesOf(
    interfaceId: string,
  ): Promise<PeerSummary[]> {
    return [
      ...await this.db.sql<PeerSummary[]>`
        SELECT id, name, public_key, status FROM peers WHERE interface_id = ${interfaceId}
        ORDER BY name`,
    ];
  }

  async countOf(interfaceId: string): Promise<number> {
    const [{ n }] = await this.db.sql<{ n: number }[]>`
      SELECT count(*) AS n FROM peers WHERE interface_id = ${interfaceId}`;
    return n;
  }

  async enabledForHost(): Promise<HostPeer[]> {
    return [
      ...await this.db.sql<HostPeer[]>`
        SELECT interface_id, public_key, preshared_key, address, allowed_ips, keepalive, endpoint
        FROM peers WHERE status = 'enabled'`,
    ];
  }

  async identities(): Promise<PeerIdentity[]> {
    return [
      ...await this.db.sql<PeerIdentity[]>`
        SELECT id, name, public_key FROM peers`,
    ];
  }

  async byPublicKey(publicKey: string): Promise<Pick<PeerRow, "id" | "interface_id"> | undefined> {
    const [row] = await this.db.sql<Pick<PeerRow, "id" | "interface_id">[]>`
      SELECT id, interface_id FROM peers WHERE public_key = ${publicKey}`;
    return row;
  }

  async idByName(interfaceId: string, name: string): Promise<string | undefined> {
    const [row] = await this.db.sql<{ id: string }[]>`
      SELECT id FROM peers WHERE interface_id = ${interfaceId} AND name = ${name}`;
    return row?.id;
  }

  async insert(p: PeerRow): Promise<void> {
    await this.db.sql`
      INSERT INTO peers (id, interface_id, name, public_key, private_key, preshared_key, address,
        allowed_ips, dns, keepalive, mtu, profile, status, endpoint, created_at, updated_at)
      VALUES (${p.id}, ${p.interface_id}, ${p.name}, ${p.public_key}, ${p.private_key},
        ${p.preshared_key}, ${p.address}, ${p.allowed_ips}, ${p.dns}, ${p.keepalive}, ${p.mtu},
        ${p.profile}, ${p.status}, ${p.endpoint ?? null}, ${p.created_at}, ${p.updated_at})`;
  }

  async update(id: string, c: PeerChange, now: number): Promise<void> {
    await this.db.sql`
      UPDATE peers SET name = ${c.name}, profile = ${c.profile}, mtu = ${c.mtu},
        keepalive = ${c.keepalive}, allowed_ips = ${c.allowed_ips}, dns = ${c.dns},
        preshared_key = ${c.preshared_key}, address = ${c.address}, updated_at = ${now}
      WHERE id = ${id}`;
  }

  async setStatus(id: string, status: PeerStatus, now: number): Promise<void> {
    if (status === "revoked") {
      await this.db.sql`
        UPDATE peers SET status = 'revoked', private_key = NULL, preshared_key = NULL,
          updated_at = ${now} WHERE id = ${id}`;
    } else {
      await this.db.sql`
        UPDATE peers SET status = ${status}, updated_at = ${now} WHERE id = ${id}`;
    }
  }

  async delete(id: string): Promise<void> {
    await this.db.sql`DELETE FROM peers WHERE id = ${id}`;
  }
}
