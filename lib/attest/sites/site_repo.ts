/**
 * Attestation sites in the store (migration 11), and the one read of a
 * session's site. Origins are stored as a JSON array of canonical origins.
 *
 * Two interfaces: `SiteRepo` (synchronous) is what the attestation threads'
 * site directory and tokens read on SQLite, inside their own synchronous
 * work; `SiteRepoAsync` is what the site service uses, on both engines
 * (`SqliteSiteRepoAsync` here, `PgSiteRepo` in `pg_site_repo.ts`).
 */
import type { SqliteAsync } from "../../store/sqlite_async.ts";
import type { Store } from "../../store/store.ts";

export interface SiteRow {
  id: string;
  name: string;
  site_key: string;
  /** SHA-256 hex of the secret; the secret itself is never stored. */
  secret_hash: string;
  origins: string[];
  min_chain: number;
  token_ttl_s: number;
  /** The site's cells in the shared per-site counters, or null past SITE_SLOTS sites. */
  counter_slot: number | null;
  created_at: number;
  updated_at: number;
}

/** What an update may change. */
export type SiteChange = Pick<SiteRow, "name" | "origins" | "min_chain" | "token_ttl_s">;

export interface SiteRepo {
  /** Every site, by name. */
  all(): SiteRow[];
  byId(id: string): SiteRow | undefined;
  byName(name: string): SiteRow | undefined;
  bySecretHash(hash: string): SiteRow | undefined;
  insert(row: SiteRow): void;
  update(id: string, change: SiteChange, now: number): void;
  setSecretHash(id: string, hash: string, now: number): void;
  delete(id: string): void;
  /** The site a session was created for, or null (no site key, or no such session). */
  siteOfSession(sessionId: string): string | null;
}

/** The same table, asynchronous: the site service's view on either engine. */
export interface SiteRepoAsync {
  /** Every site, by name (code point order). */
  all(): Promise<SiteRow[]>;
  byId(id: string): Promise<SiteRow | undefined>;
  byName(name: string): Promise<SiteRow | undefined>;
  bySecretHash(hash: string): Promise<SiteRow | undefined>;
  /** Throws ConflictError (`field: "name"`, `code: "duplicate_name"`) on PostgreSQL for a name taken meanwhile. */
  insert(row: SiteRow): Promise<void>;
  update(id: string, change: SiteChange, now: number): Promise<void>;
  setSecretHash(id: string, hash: string, now: number): Promise<void>;
  delete(id: string): Promise<void>;
  siteOfSession(sessionId: string): Promise<string | null>;
}

/** A row as both engines store it: origins as JSON text. */
export interface StoredSite extends Omit<SiteRow, "origins"> {
  origins: string;
}

export function toRow(r: StoredSite | undefined): SiteRow | undefined {
  return r && { ...r, origins: JSON.parse(r.origins) as string[] };
}

const COLUMNS =
  "id, name, site_key, secret_hash, origins, min_chain, token_ttl_s, counter_slot, created_at, updated_at";

export class SqliteSiteRepo implements SiteRepo {
  constructor(private readonly store: Store) {}

  all(): SiteRow[] {
    return this.store.all<StoredSite>(`SELECT ${COLUMNS} FROM attest_sites ORDER BY name`)
      .map((r) => toRow(r)!);
  }

  byId(id: string): SiteRow | undefined {
    return toRow(
      this.store.get<StoredSite>(`SELECT ${COLUMNS} FROM attest_sites WHERE id = ?`, id),
    );
  }

  byName(name: string): SiteRow | undefined {
    return toRow(
      this.store.get<StoredSite>(`SELECT ${COLUMNS} FROM attest_sites WHERE name = ?`, name),
    );
  }

  bySecretHash(hash: string): SiteRow | undefined {
    return toRow(
      this.store.get<StoredSite>(`SELECT ${COLUMNS} FROM attest_sites WHERE secret_hash = ?`, hash),
    );
  }

  insert(r: SiteRow): void {
    this.store.run(
      `INSERT INTO attest_sites (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      r.id,
      r.name,
      r.site_key,
      r.secret_hash,
      JSON.stringify(r.origins),
      r.min_chain,
      r.token_ttl_s,
      r.counter_slot,
      r.created_at,
      r.updated_at,
    );
  }

  update(id: string, c: SiteChange, now: number): void {
    this.store.run(
      `UPDATE attest_sites SET name = ?, origins = ?, min_chain = ?, token_ttl_s = ?, updated_at = ?
       WHERE id = ?`,
      c.name,
      JSON.stringify(c.origins),
      c.min_chain,
      c.token_ttl_s,
      now,
      id,
    );
  }

  setSecretHash(id: string, hash: string, now: number): void {
    this.store.run(
      "UPDATE attest_sites SET secret_hash = ?, updated_at = ? WHERE id = ?",
      hash,
      now,
      id,
    );
  }

  delete(id: string): void {
    this.store.run("DELETE FROM attest_sites WHERE id = ?", id);
  }

  siteOfSession(sessionId: string): string | null {
    return this.store.get<{ site_id: string | null }>(
      "SELECT site_id FROM attest_sessions WHERE session_id = ?",
      sessionId,
    )?.site_id ?? null;
  }
}

/** `SiteRepoAsync` on SQLite: the synchronous statements above, through the store's queue. */
export class SqliteSiteRepoAsync implements SiteRepoAsync {
  constructor(private readonly db: SqliteAsync) {}

  #sync<T>(fn: (repo: SqliteSiteRepo) => T): Promise<T> {
    return this.db.run((store) => fn(new SqliteSiteRepo(store)));
  }

  all(): Promise<SiteRow[]> {
    return this.#sync((r) => r.all());
  }

  byId(id: string): Promise<SiteRow | undefined> {
    return this.#sync((r) => r.byId(id));
  }

  byName(name: string): Promise<SiteRow | undefined> {
    return this.#sync((r) => r.byName(name));
  }

  bySecretHash(hash: string): Promise<SiteRow | undefined> {
    return this.#sync((r) => r.bySecretHash(hash));
  }

  insert(row: SiteRow): Promise<void> {
    return this.#sync((r) => r.insert(row));
  }

  update(id: string, change: SiteChange, now: number): Promise<void> {
    return this.#sync((r) => r.update(id, change, now));
  }

  setSecretHash(id: string, hash: string, now: number): Promise<void> {
    return this.#sync((r) => r.setSecretHash(id, hash, now));
  }

  delete(id: string): Promise<void> {
    return this.#sync((r) => r.delete(id));
  }

  siteOfSession(sessionId: string): Promise<string | null> {
    return this.#sync((r) => r.siteOfSession(sessionId));
  }
}
