/** SQLite migration 24 (`lib/store/migrations/0024_oidc.ts`) on PostgreSQL. */
import type { PgMigration } from "./mod.ts";

export const oidc: PgMigration = {
  version: 8,
  name: "oidc",
  sql: `
CREATE TABLE oidc_providers (
  id            TEXT COLLATE "C" PRIMARY KEY,
  display_name  TEXT COLLATE "C" NOT NULL,
  issuer        TEXT COLLATE "C" NOT NULL,
  client_id     TEXT COLLATE "C" NOT NULL,
  client_secret TEXT COLLATE "C" NOT NULL,
  scopes        TEXT COLLATE "C" NOT NULL,
  claim         TEXT COLLATE "C" NOT NULL,
  role_map      TEXT COLLATE "C" NOT NULL,
  enabled       SMALLINT NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
  created_at    BIGINT NOT NULL,
  updated_at    BIGINT NOT NULL
);
CREATE TABLE oidc_identities (
  issuer      TEXT COLLATE "C" NOT NULL,
  subject     TEXT COLLATE "C" NOT NULL,
  user_id     TEXT COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  provider_id TEXT COLLATE "C" NOT NULL,
  created_at  BIGINT NOT NULL,
  PRIMARY KEY (issuer, subject)
);
CREATE INDEX oidc_identities_user ON oidc_identities(user_id);
`,
};
