/** SQLite migration 19 (`lib/store/migrations/0019_two_factor.ts`) on PostgreSQL. */
import type { PgMigration } from "./mod.ts";

export const twoFactor: PgMigration = {
  version: 3,
  name: "two-factor",
  sql: `
CREATE TABLE user_totp (
  user_id    TEXT COLLATE "C" PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  secret     TEXT COLLATE "C" NOT NULL,
  created_at BIGINT NOT NULL,
  enabled_at BIGINT,
  last_step  BIGINT
);
CREATE TABLE user_recovery_codes (
  user_id   TEXT COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  code_hash TEXT COLLATE "C" NOT NULL,
  used_at   BIGINT,
  PRIMARY KEY (user_id, code_hash)
);
`,
};
