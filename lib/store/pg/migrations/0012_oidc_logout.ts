/** SQLite migration 28 (`lib/store/migrations/0028_oidc_logout.ts`) on PostgreSQL. */
import type { PgMigration } from "./mod.ts";

export const oidcLogout: PgMigration = {
  version: 12,
  name: "oidc-logout",
  sql: `
ALTER TABLE oidc_providers ADD COLUMN logout_at_provider SMALLINT NOT NULL DEFAULT 1
  CHECK (logout_at_provider IN (0, 1));
`,
};
