import type { Migration } from "../store.ts";

/** Identity, sessions, API tokens, login throttling, audit, settings. */
export const foundation: Migration = {
  version: 1,
  name: "foundation",
  sql: `
CREATE TABLE users (
  id            TEXT PRIMARY KEY,
  username      TEXT NOT NULL UNIQUE COLLATE NOCASE,
  email         TEXT NOT NULL DEFAULT '',
  password_hash TEXT NOT NULL,
  role          TEXT NOT NULL CHECK (role IN ('administrator', 'operator', 'viewer')),
  -- Bumped when the password changes; JWTs carry it so old ones stop working.
  auth_epoch    INTEGER NOT NULL DEFAULT 0,
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL,
  last_login    INTEGER
);

-- A session cookie is "<id>.<secret>"; only a SHA-256 of the secret is kept.
CREATE TABLE sessions (
  id          TEXT PRIMARY KEY,
  secret_hash TEXT NOT NULL,
  user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at  INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL,
  last_seen   INTEGER NOT NULL,
  address     TEXT NOT NULL DEFAULT '',
  user_agent  TEXT NOT NULL DEFAULT ''
);
CREATE INDEX sessions_user ON sessions(user_id);

-- A raw token is "svc_<id>_<random>"; only its SHA-256 is kept.
CREATE TABLE api_tokens (
  id           TEXT PRIMARY KEY,
  user_id      TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name         TEXT NOT NULL,
  token_hash   TEXT NOT NULL,
  created_at   INTEGER NOT NULL,
  expires_at   INTEGER NOT NULL,
  last_used_at INTEGER
);
CREATE INDEX api_tokens_user ON api_tokens(user_id);

CREATE TABLE login_failures (
  id       INTEGER PRIMARY KEY,
  username TEXT NOT NULL COLLATE NOCASE,
  address  TEXT NOT NULL,
  at       INTEGER NOT NULL
);
CREATE INDEX login_failures_username ON login_failures(username, at);
CREATE INDEX login_failures_address ON login_failures(address, at);

CREATE TABLE audit (
  id            INTEGER PRIMARY KEY,
  at            INTEGER NOT NULL,
  actor         TEXT NOT NULL,
  event_type    TEXT NOT NULL,
  message       TEXT NOT NULL,
  resource_type TEXT NOT NULL,
  resource_id   TEXT NOT NULL
);
CREATE INDEX audit_at ON audit(at);
CREATE INDEX audit_event_type ON audit(event_type, id);
CREATE INDEX audit_resource_type ON audit(resource_type, id);
CREATE INDEX audit_actor ON audit(actor, id);
CREATE TRIGGER audit_append_only_update BEFORE UPDATE ON audit
  BEGIN SELECT RAISE(ABORT, 'audit records are append-only'); END;
CREATE TRIGGER audit_append_only_delete BEFORE DELETE ON audit
  BEGIN SELECT RAISE(ABORT, 'audit records are append-only'); END;

CREATE TABLE settings (
  key         TEXT PRIMARY KEY,
  value       TEXT NOT NULL,
  is_secret   INTEGER NOT NULL DEFAULT 0,
  description TEXT NOT NULL DEFAULT '',
  updated_at  INTEGER NOT NULL
);

-- Internal values (signing keys); never listed through any API.
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
`,
};
