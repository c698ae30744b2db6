import type { Migration } from "../store.ts";

/**
 * Passkeys (issue 29; docs/security.md, "Passkeys"). `user_passkeys`: one
 * row per WebAuthn credential a user registered; `credential_id` and
 * `public_key` are base64url, `counter` the authenticator's last signature
 * counter, `transports` a comma-separated list. The public key is no secret,
 * but it is never listed. `passkey_challenges_used`: the SHA-256 (hex) of each
 * signed challenge already answered, kept until it expires, so an answer is
 * taken once on any instance sharing the store. Times are Unix milliseconds.
 */
export const passkeys: Migration = {
  version: 23,
  name: "passkeys",
  sql: `
CREATE TABLE user_passkeys (
  id            TEXT PRIMARY KEY,
  user_id       TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name          TEXT NOT NULL,
  credential_id TEXT NOT NULL UNIQUE,
  public_key    TEXT NOT NULL,
  counter       INTEGER NOT NULL,
  transports    TEXT NOT NULL,
  created_at    INTEGER NOT NULL,
  last_used_at  INTEGER
);
CREATE INDEX user_passkeys_user ON user_passkeys(user_id);
CREATE TABLE passkey_challenges_used (
  challenge_hash TEXT PRIMARY KEY,
  expires_at     INTEGER NOT NULL
);
`,
};
