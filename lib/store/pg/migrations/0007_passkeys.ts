/** SQLite migration 23 (`lib/store/migrations/0023_passkeys.ts`) on PostgreSQL. */
import type { PgMigration } from "./mod.ts";

export const passkeys: PgMigration = {
  version: 7,
  name: "passkeys",
  sql: `
CREATE TABLE user_passkeys (
  id            TEXT COLLATE "C" PRIMARY KEY,
  user_id       TEXT COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name          TEXT COLLATE "C" NOT NULL,
  credential_id TEXT COLLATE "C" NOT NULL UNIQUE,
  public_key    TEXT COLLATE "C" NOT NULL,
  counter       BIGINT NOT NULL,
  transports    TEXT COLLATE "C" NOT NULL,
  created_at    BIGINT NOT NULL,
  last_used_at  BIGINT
);
CREATE INDEX user_passkeys_user ON user_passkeys(user_id);
CREATE TABLE passkey_challenges_used (
  challenge_hash TEXT COLLATE "C" PRIMARY KEY,
  expires_at     BIGINT NOT NULL
);
`,
};
