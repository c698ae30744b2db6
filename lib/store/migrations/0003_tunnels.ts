import type { Migration } from "../store.ts";

/**
 * WireGuard interfaces and their peers: the desired state that the host
 * layer applies. Secrets (private keys, preshared keys) live here and nowhere
 * else; listings never select them.
 */
export const tunnels: Migration = {
  version: 3,
  name: "tunnels",
  sql: `
CREATE TABLE interfaces (
  id          TEXT PRIMARY KEY,
  name        TEXT NOT NULL UNIQUE,
  -- Interface address with prefix, e.g. 10.8.0.1/24; the prefix is the peer pool.
  address_v4  TEXT NOT NULL UNIQUE,
  -- NULL for interfaces that take a dynamic port (upstreams); SQLite lets NULLs repeat.
  listen_port INTEGER UNIQUE CHECK (listen_port IS NULL OR listen_port BETWEEN 1 AND 65535),
  mtu         INTEGER NOT NULL CHECK (mtu BETWEEN 1280 AND 9000),
  role        TEXT NOT NULL DEFAULT 'overlay' CHECK (role IN ('overlay', 'upstream')),
  enabled     INTEGER NOT NULL DEFAULT 1,
  private_key TEXT NOT NULL,
  public_key  TEXT NOT NULL UNIQUE,
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL
);

CREATE TABLE peers (
  id            TEXT PRIMARY KEY,
  interface_id  TEXT NOT NULL REFERENCES interfaces(id) ON DELETE CASCADE,
  name          TEXT NOT NULL,
  -- Unique across interfaces: one key is one identity, and a revoked key stays reserved.
  public_key    TEXT NOT NULL UNIQUE,
  -- NULL when the client brought its own key pair, or after revoke.
  private_key   TEXT,
  preshared_key TEXT,
  -- Tunnel address of the peer without prefix (the server routes it as /32).
  address       TEXT NOT NULL,
  -- Client-side AllowedIPs; NULL means the profile's default.
  allowed_ips   TEXT,
  dns           TEXT NOT NULL DEFAULT '',
  keepalive     INTEGER CHECK (keepalive IS NULL OR keepalive BETWEEN 0 AND 65535),
  mtu           INTEGER CHECK (mtu IS NULL OR mtu BETWEEN 1280 AND 9000),
  profile       TEXT NOT NULL DEFAULT 'full-tunnel',
  status        TEXT NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled', 'revoked')),
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL,
  UNIQUE (interface_id, address),
  UNIQUE (interface_id, name)
);
CREATE INDEX peers_interface ON peers(interface_id, status);
`,
};
