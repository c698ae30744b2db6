/** The `oidc_providers` and `oidc_identities` tables on PostgreSQL: the twin of `SqliteOidcRepo`. */
import { isPgUniqueViolation } from "../../store/pg/errors.ts";
import type { PgAsync } from "../../store/pg/pg_async.ts";
import {
  type IdentityRow,
  identityTaken,
  type OidcIdentityRecord,
  type OidcProviderRecord,
  type OidcRepo,
  type ProviderRow,
  providerTaken,
  toIdentity,
  toProvider,
} from "./oidc_repo.ts";

export class PgOidcRepo implements OidcRepo {
  constructor(private readonly db: PgAsync) {}

  async providers(): Promise<OidcProviderRecord[]> {
    const rows = await this.db.sql<ProviderRow[]>`
      SELECT id, display_name, issuer, client_id, client_secret, scopes, claim, role_map, enabled,
        logout_at_provider, created_at, updated_at
      FROM oidc_providers ORDER BY display_name, id`;
    return rows.map(toProvider);
  }

  async provider(id: string): Promise<OidcProviderRecord | undefined> {
    const [r] = await this.db.sql<ProviderRow[]>`
      SELECT id, display_name, issuer, client_id, client_secret, scopes, claim, role_map, enabled,
        logout_at_provider, created_at, updated_at
      FROM oidc_providers WHERE id = ${id}`;
    return r && toProvider(r);
  }

  async insertProvider(p: OidcProviderRecord): Promise<void> {
    try {
      await this.db.sql`
        INSERT INTO oidc_providers (id, display_name, issuer, client_id, client_secret, scopes,
          claim, role_map, enabled, logout_at_provider, created_at, updated_at)
        VALUES (${p.id}, ${p.displayName}, ${p.issuer}, ${p.clientId}, ${p.clientSecret},
          ${p.scopes}, ${p.claim}, ${JSON.stringify(p.roleMap)}, ${p.enabled ? 1 : 0},
          ${p.logoutAtProvider ? 1 : 0}, ${p.createdAt}, ${p.updatedAt})`;
    } catch (err) {
      throw isPgUniqueViolation(err) ? providerTaken(p.id) : err;
    }
  }

  async updateProvider(p: OidcProviderRecord): Promise<boolean> {
    const r = await this.db.sql`
      UPDATE oidc_providers SET display_name = ${p.displayName}, issuer = ${p.issuer},
        client_id = ${p.clientId}, client_secret = ${p.clientSecret}, scopes = ${p.scopes},
        claim = ${p.claim}, role_map = ${JSON.stringify(p.roleMap)}, enabled = ${
      p.enabled ? 1 : 0
    }, logout_at_provider = ${p.logoutAtProvider ? 1 : 0}, updated_at = ${p.updatedAt}
      WHERE id = ${p.id}`;
    return r.count === 1;
  }

  async deleteProvider(id: string): Promise<boolean> {
    const r = await this.db.sql`DELETE FROM oidc_providers WHERE id = ${id}`;
    return r.count === 1;
  }

  async identity(issuer: string, subject: string): Promise<OidcIdentityRecord | undefined> {
    const [r] = await this.db.sql<IdentityRow[]>`
      SELECT issuer, subject, user_id, provider_id, created_at FROM oidc_identities
      WHERE issuer = ${issuer} AND subject = ${subject}`;
    return r && toIdentity(r);
  }

  async link(i: OidcIdentityRecord): Promise<void> {
    try {
      await this.db.sql`
        INSERT INTO oidc_identities (issuer, subject, user_id, provider_id, created_at)
        VALUES (${i.issuer}, ${i.subject}, ${i.userId}, ${i.providerId}, ${i.createdAt})`;
    } catch (err) {
      throw isPgUniqueViolation(err) ? identityTaken() : err;
    }
  }

  async hasIdentity(userId: string): Promise<boolean> {
    const rows = await this.db.sql`
      SELECT 1 AS x FROM oidc_identities WHERE user_id = ${userId} LIMIT 1`;
    return rows.length > 0;
  }
}
