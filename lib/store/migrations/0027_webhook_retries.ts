import type { Migration } from "../store.ts";

/**
 * Webhook follow-ups (docs/webhooks.md). `webhook_retries`: one row per
 * delivery waiting for its next attempt, so a restart does not lose it;
 * `body` is the exact JSON sent (the signature covers those bytes),
 * `attempt` the number of the next attempt, `claimed_until` the lease of the
 * instance making that attempt (0 when none), so two instances never send
 * the same attempt. `previous_secret`/`previous_secret_until`: the secret a
 * rotation replaced, still signing alongside the new one until that time;
 * kept in clear like `secret` (deliveries are signed with it), never listed.
 * Times are Unix milliseconds.
 */
export const webhookRetries: Migration = {
  version: 27,
  name: "webhook-retries",
  sql: `
ALTER TABLE webhooks ADD COLUMN previous_secret TEXT;
ALTER TABLE webhooks ADD COLUMN previous_secret_until INTEGER;
CREATE TABLE webhook_retries (
  id TEXT PRIMARY KEY,
  webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  event_id TEXT NOT NULL,
  event_type TEXT NOT NULL,
  body TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  first_at INTEGER NOT NULL,
  due_at INTEGER NOT NULL,
  claimed_until INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX webhook_retries_due ON webhook_retries(due_at);
CREATE INDEX webhook_retries_hook ON webhook_retries(webhook_id);
`,
};
