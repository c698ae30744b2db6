import type { Migration } from "../store.ts";

/**
 * Outgoing webhooks (issue 29; docs/webhooks.md): one row per subscription
 * and its delivery log. `events` is a JSON array of event types; `secret`
 * is kept in clear because each delivery is signed with it (HMAC), and it
 * is never listed, logged or audited. `webhook_deliveries` holds one row
 * per attempt, bounded per subscription by PALISADE_WEBHOOK_LOG_KEEP.
 * Times are Unix milliseconds.
 */
export const webhooks: Migration = {
  version: 20,
  name: "webhooks",
  sql: `
CREATE TABLE webhooks (
  id TEXT PRIMARY KEY,
  url TEXT NOT NULL,
  events TEXT NOT NULL,
  secret TEXT NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  created_by TEXT NOT NULL
);
CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  event_id TEXT NOT NULL,
  event_type TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('delivered', 'retrying', 'failed')),
  response_code INTEGER,
  error TEXT,
  at INTEGER NOT NULL
);
CREATE INDEX webhook_deliveries_hook ON webhook_deliveries(webhook_id, at, attempt);
`,
};
