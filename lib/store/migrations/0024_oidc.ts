import type { Migration } from "../store.ts";

/**
 * Single sign-on with OpenID Connect (issue 29; docs/sso.md).
 * `oidc_providers`: one row per identity provider; `client_secret` is sealed
 * with AES-GCM under a key in `meta` (lib/auth/oidc/secret_seal.ts),
 * `role_map` is a JSON object from a claim value to a role, `scopes` is
 * space-separated. `oidc_identities`: the user a provider's subject signed in
 * as, keyed by issuer and subject (never by name). Times are Unix milliseconds.
 */
export const oidc: Migration = {
  version: 24,
  name: "oidc",
  sql: `
CREATE TABLE oidc_providers (
  id            TEXT PRIMARY KEY,
  display_name  TEXT NOT NULL,
  issuer        TEXT NOT NULL,
  client_id     TEXT NOT NULL,
  client_secret TEXT NOT NULL,
  scopes        TEXT NOT NULL,
  claim         TEXT NOT NULL,
  role_map      TEXT NOT NULL,
  enabled       INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL
);
CREATE TABLE oidc_identities (
  issuer      TEXT NOT NULL,
  subject     TEXT NOT NULL,
  user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  provider_id TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  PRIMARY KEY (issuer, subject)
);
CREATE INDEX oidc_identities_user ON oidc_identities(user_id);
`,
};
