import type { Migration } from "../store.ts";

/**
 * Networks (IPAM), routes and firewall rules of the tunnel domain
 * (docs/tunnels.md, "Networks, routes, firewall"). Every interface's subnet is
 * a network (`interface_id` set), so the addresses peers get are the
 * addresses a network hands out; interfaces stored before this migration
 * get theirs when the tunnel services start (lib/tunnel/networks/, one
 * computation of the block in TypeScript rather than in SQL). Routes and rules are desired state that the host driver applies
 * into Palisade's own route protocol tag and nftables table.
 */
export const networks: Migration = {
  version: 7,
  name: "networks-routes-firewall",
  sql: `
CREATE TABLE networks (
  id           TEXT PRIMARY KEY,
  name         TEXT NOT NULL UNIQUE,
  -- Canonical IPv4 block, host bits zero, e.g. 10.8.0.0/24.
  cidr         TEXT NOT NULL UNIQUE,
  -- The interface whose subnet this is; NULL for a free-standing pool.
  interface_id TEXT UNIQUE REFERENCES interfaces(id) ON DELETE SET NULL,
  -- 'interface': made with its interface and deleted with it; 'api': made by POST /networks.
  origin       TEXT NOT NULL DEFAULT 'api' CHECK (origin IN ('api', 'interface')),
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL
);

CREATE TABLE routes (
  id           TEXT PRIMARY KEY,
  -- Canonical IPv4 block, host bits zero.
  destination  TEXT NOT NULL,
  gateway      TEXT NOT NULL,
  metric       INTEGER NOT NULL CHECK (metric BETWEEN 0 AND 4294967295),
  -- The managed interface the gateway is reached through (its device).
  interface_id TEXT NOT NULL REFERENCES interfaces(id) ON DELETE RESTRICT,
  created_at   INTEGER NOT NULL,
  UNIQUE (destination, metric)
);

CREATE TABLE firewall_rules (
  id           TEXT PRIMARY KEY,
  name         TEXT NOT NULL UNIQUE,
  protocol     TEXT NOT NULL CHECK (protocol IN ('tcp', 'udp', 'icmp', 'any')),
  port         INTEGER CHECK (port IS NULL OR port BETWEEN 1 AND 65535),
  action       TEXT NOT NULL CHECK (action IN ('accept', 'drop', 'reject')),
  direction    TEXT NOT NULL DEFAULT 'input' CHECK (direction IN ('input', 'forward')),
  -- Incoming interface to match; NULL for any.
  interface_id TEXT REFERENCES interfaces(id) ON DELETE RESTRICT,
  -- Source block to match (canonical IPv4 CIDR); NULL for any.
  source       TEXT,
  enabled      INTEGER NOT NULL DEFAULT 1,
  -- Evaluation order: rules are applied in ascending position (creation order).
  position     INTEGER NOT NULL UNIQUE,
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL
);
`,
};
