import type { Migration } from "../store.ts";

/**
 * The history of peers, firewall rules and routes (docs/tunnels.md, "History
 * and revert"): one row per change of one object, written in the change's
 * transaction (lib/tunnel/history/history_write.ts). `before_state` and
 * `after_state` are JSON snapshots of the object without its secrets (null
 * when it did not exist). No foreign key: a deleted object's history stays,
 * since that is what a deletion is reverted from.
 */
export const tunnelHistory: Migration = {
  version: 26,
  name: "tunnel-history",
  sql: `
CREATE TABLE tunnel_history (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  kind         TEXT NOT NULL CHECK (kind IN ('peer', 'firewall_rule', 'route')),
  object_id    TEXT NOT NULL,
  actor        TEXT NOT NULL,
  summary      TEXT NOT NULL,
  before_state TEXT,
  after_state  TEXT,
  reverts      INTEGER,
  created_at   INTEGER NOT NULL
);
CREATE INDEX tunnel_history_object ON tunnel_history(kind, object_id, id);
`,
};
