/** The `attest_sites` table on PostgreSQL: the twin of `SqliteSiteRepoAsync`. */
import { conflictOnUnique } from "../../store/pg/errors.ts";
import type { PgAsync } from "../../store/pg/pg_async.ts";
import {
  type SiteChange,
  type SiteRepoAsync,
  type SiteRow,
  type StoredSite,
  toRow,
} from "./site_repo.ts";

/** A name taken between the service's check and the write (another instance, same moment). */
function nameTaken(err: unknown, what: string, name: string): unknown {
  const conflict = {
    message: `${what}: name ${JSON.stringify(name)} is already used`,
    field: "name",
    code: "duplicate_name",
  };
  return conflictOnUnique(err, { attest_sites_name_key: conflict }, {
    message: `${what}: the site collides with another`,
    field: "name",
    code: "duplicate_site",
  });
}

const COLUMNS = [
  "id",
  "name",
  "site_key",
  "secret_hash",
  "origins",
  "min_chain",
  "token_ttl_s",
  "counter_slot",
  "created_at",
  "updated_at",
];

export class PgSiteRepo implements SiteRepoAsync {
  constructor(private readonly db: PgAsync) {}

  async all(): Promise<SiteRow[]> {
    const rows = await this.db.sql<StoredSite[]>`
      SELECT ${this.db.sql(COLUMNS)} FROM attest_sites ORDER BY name`;
    return rows.map((r) => toRow(r)!);
  }

  byId(id: string): Promise<SiteRow | undefined> {
    return this.#one("id", id);
  }

  byName(name: string): Promise<SiteRow | undefined> {
    return this.#one("name", name);
  }

  bySecretHash(hash: string): Promise<SiteRow | undefined> {
    return this.#one("secret_hash", hash);
  }

  /** The site whose `column` is `value`. */
  async #one(column: "id" | "name" | "secret_hash", value: string) {
    const [r] = await this.db.sql<StoredSite[]>`
      SELECT ${this.db.sql(COLUMNS)} FROM attest_sites WHERE ${this.db.sql(column)} = ${value}`;
    return toRow(r);
  }

  async insert(r: SiteRow): Promise<void> {
    try {
      await this.db.sql`
        INSERT INTO attest_sites (id, name, site_key, secret_hash, origins, min_chain, token_ttl_s,
                                  counter_slot, created_at, updated_at)
        VALUES (${r.id}, ${r.name}, ${r.site_key}, ${r.secret_hash}, ${JSON.stringify(r.origins)},
                ${r.min_chain}, ${r.token_ttl_s}, ${r.counter_slot}, ${r.created_at},
                ${r.updated_at})`;
    } catch (err) {
      throw nameTaken(err, `Cannot create site ${JSON.stringify(r.name)}`, r.name);
    }
  }

  async update(id: string, c: SiteChange, now: number): Promise<void> {
    try {
      await this.db.sql`
        UPDATE attest_sites SET name = ${c.name}, origins = ${JSON.stringify(c.origins)},
          min_chain = ${c.min_chain}, token_ttl_s = ${c.token_ttl_s}, updated_at = ${now}
        WHERE id = ${id}`;
    } catch (err) {
      throw nameTaken(err, `Cannot update site ${JSON.stringify(c.name)}`, c.name);
    }
  }

  async setSecretHash(id: string, hash: string, now: number): Promise<void> {
    await this.db.sql`
      UPDATE attest_sites SET secret_hash = ${hash}, updated_at = ${now} WHERE id = ${id}`;
  }

  async delete(id: string): Promise<void> {
    await this.db.sql`DELETE FROM attest_sites WHERE id = ${id}`;
  }

  async siteOfSession(sessionId: string): Promise<string | null> {
    const [r] = await this.db.sql<{ site_id: string | null }[]>`
      SELECT site_id FROM attest_sessions WHERE session_id = ${sessionId}`;
    return r?.site_id ?? null;
  }
}
