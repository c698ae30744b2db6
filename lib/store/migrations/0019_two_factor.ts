import type { Migration } from "../store.ts";

/**
 * Two-factor sign-in (issue 29; docs/api.md, "Two-factor sign-in").
 * `user_totp`: one row per user who started enrolment; `secret` is the TOTP
 * secret sealed with AES-GCM under a key in `meta` (lib/auth/two_factor.ts),
 * `enabled_at` stays null until the first code confirms it, `last_step` is
 * the last time step accepted, so a code is taken once. `user_recovery_codes`:
 * the SHA-256 (hex) of each one-time recovery code, `used_at` set when used.
 * Times are Unix milliseconds.
 */
export const twoFactor: Migration = {
  version: 19,
  name: "two-factor",
  sql: `
CREATE TABLE user_totp (
  user_id    TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  secret     TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  enabled_at INTEGER,
  last_step  INTEGER
);
CREATE TABLE user_recovery_codes (
  user_id   TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  code_hash TEXT NOT NULL,
  used_at   INTEGER,
  PRIMARY KEY (user_id, code_hash)
);
`,
};
