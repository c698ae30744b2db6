/**
 * The `oidc_providers` and `oidc_identities` tables (docs/sso.md). Ported to
 * both engines: the PostgreSQL twin is `pg_oidc_repo.ts`.
 */
import { ConflictError } from "../../errors.ts";
import type { SqliteAsync } from "../../store/sqlite_async.ts";
import { isUniqueViolation } from "../../store/store.ts";
import type { Role } from "../roles.ts";

/** A stored provider; times are Unix milliseconds. */
export interface OidcProviderRecord {
  /** A short name used in URLs (`/sso/<id>`). */
  id: string;
  displayName: string;
  issuer: string;
  clientId: string;
  /** Sealed (secret_seal.ts), never the raw secret. */
  clientSecret: string;
  /** Space-separated, `openid` first. */
  scopes: string;
  /** The claim whose value(s) `roleMap` maps to a role, e.g. `groups`. */
  claim: string;
  roleMap: Record<string, Role>;
  enabled: boolean;
  /** Sign-out goes on to the provider's end_session_endpoint when it has one. */
  logoutAtProvider: boolean;
  createdAt: number;
  updatedAt: number;
}

/** The user a provider's subject signs in as. */
export interface OidcIdentityRecord {
  issuer: string;
  subject: string;
  userId: string;
  providerId: string;
  createdAt: number;
}

export interface OidcRepo {
  /** Every provider, by display name then id. */
  providers(): Promise<OidcProviderRecord[]>;
  provider(id: string): Promise<OidcProviderRecord | undefined>;
  /** ConflictError (field `id`) when the id is taken. */
  insertProvider(p: OidcProviderRecord): Promise<void>;
  /** Replaces every column but `id` and `createdAt`; false when the provider does not exist. */
  updateProvider(p: OidcProviderRecord): Promise<boolean>;
  deleteProvider(id: string): Promise<boolean>;
  identity(issuer: string, subject: string): Promise<OidcIdentityRecord | undefined>;
  /** Links an identity; ConflictError when that issuer and subject are linked already. */
  link(identity: OidcIdentityRecord): Promise<void>;
  /** True when the user signs in through a provider (has at least one identity). */
  hasIdentity(userId: string): Promise<boolean>;
}

/** A provider row as both engines return it. */
export interface ProviderRow {
  id: string;
  display_name: string;
  issuer: string;
  client_id: string;
  client_secret: string;
  scopes: string;
  claim: string;
  role_map: string;
  enabled: number;
  logout_at_provider: number;
  created_at: number | string;
  updated_at: number | string;
}

export interface IdentityRow {
  issuer: string;
  subject: string;
  user_id: string;
  provider_id: string;
  created_at: number | string;
}

export const PROVIDER_COLUMNS =
  "id, display_name, issuer, client_id, client_secret, scopes, claim, role_map, enabled, logout_at_provider, created_at, updated_at";
export const IDENTITY_COLUMNS = "issuer, subject, user_id, provider_id, created_at";

export const toProvider = (r: ProviderRow): OidcProviderRecord => ({
  id: r.id,
  displayName: r.display_name,
  issuer: r.issuer,
  clientId: r.client_id,
  clientSecret: r.client_secret,
  scopes: r.scopes,
  claim: r.claim,
  roleMap: JSON.parse(r.role_map),
  enabled: Number(r.enabled) === 1,
  logoutAtProvider: Number(r.logout_at_provider) === 1,
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

export const toIdentity = (r: IdentityRow): OidcIdentityRecord => ({
  issuer: r.issuer,
  subject: r.subject,
  userId: r.user_id,
  providerId: r.provider_id,
  createdAt: Number(r.created_at),
});

export const providerTaken = (id: string) =>
  new ConflictError(`Provider "${id}" already exists`, { field: "id", code: "duplicate_provider" });

export const identityTaken = () =>
  new ConflictError("That identity is linked to a user already", { code: "duplicate_identity" });

/** The values of a provider row in PROVIDER_COLUMNS order. */
export const providerValues = (p: OidcProviderRecord) =>
  [
    p.id,
    p.displayName,
    p.issuer,
    p.clientId,
    p.clientSecret,
    p.scopes,
    p.claim,
    JSON.stringify(p.roleMap),
    p.enabled ? 1 : 0,
    p.logoutAtProvider ? 1 : 0,
    p.createdAt,
    p.updatedAt,
  ] as const;

export class SqliteOidcRepo implements OidcRepo {
  constructor(private readonly db: SqliteAsync) {}

  providers(): Promise<OidcProviderRecord[]> {
    return this.db.run((s) =>
      s.all<ProviderRow>(
        `SELECT ${PROVIDER_COLUMNS} FROM oidc_providers ORDER BY display_name, id`,
      ).map(toProvider)
    );
  }

  provider(id: string): Promise<OidcProviderRecord | undefined> {
    return this.db.run((s) => {
      const r = s.get<ProviderRow>(
        `SELECT ${PROVIDER_COLUMNS} FROM oidc_providers WHERE id = ?`,
        id,
      );
      return r && toProvider(r);
    });
  }

  insertProvider(p: OidcProviderRecord): Promise<void> {
    return this.db.run((s) => {
      try {
        s.run(
          `INSERT INTO oidc_providers (${PROVIDER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          ...providerValues(p),
        );
      } catch (err) {
        if (isUniqueViolation(err)) throw providerTaken(p.id);
        throw err;
      }
    });
  }

  updateProvider(p: OidcProviderRecord): Promise<boolean> {
    return this.db.run((s) =>
      s.run(
        `UPDATE oidc_providers SET display_name = ?, issuer = ?, client_id = ?, client_secret = ?,
           scopes = ?, claim = ?, role_map = ?, enabled = ?, logout_at_provider = ?, updated_at = ?
           WHERE id = ?`,
        p.displayName,
        p.issuer,
        p.clientId,
        p.clientSecret,
        p.scopes,
        p.claim,
        JSON.stringify(p.roleMap),
        p.enabled ? 1 : 0,
        p.logoutAtProvider ? 1 : 0,
        p.updatedAt,
        p.id,
      ).changes === 1
    );
  }

  deleteProvider(id: string): Promise<boolean> {
    return this.db.run((s) => s.run("DELETE FROM oidc_providers WHERE id = ?", id).changes === 1);
  }

  identity(issuer: string, subject: string): Promise<OidcIdentityRecord | undefined> {
    return this.db.run((s) => {
      const r = s.get<IdentityRow>(
        `SELECT ${IDENTITY_COLUMNS} FROM oidc_identities WHERE issuer = ? AND subject = ?`,
        issuer,
        subject,
      );
      return r && toIdentity(r);
    });
  }

  link(i: OidcIdentityRecord): Promise<void> {
    return this.db.run((s) => {
      try {
        s.run(
          `INSERT INTO oidc_identities (${IDENTITY_COLUMNS}) VALUES (?, ?, ?, ?, ?)`,
          i.issuer,
          i.subject,
          i.userId,
          i.providerId,
          i.createdAt,
        );
      } catch (err) {
        if (isUniqueViolation(err)) throw identityTaken();
        throw err;
      }
    });
  }

  hasIdentity(userId: string): Promise<boolean> {
    return this.db.run((s) =>
      s.get("SELECT 1 AS x FROM oidc_identities WHERE user_id = ? LIMIT 1", userId) !== undefined
    );
  }
}
