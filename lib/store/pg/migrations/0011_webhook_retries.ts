/** SQLite migration 27 (`lib/store/migrations/0027_webhook_retries.ts`) on PostgreSQL. */
import type { PgMigration } from "./mod.ts";

export const webhookRetries: PgMigration = {
  version: 11,
  name: "webhook-retries",
  sql: `
ALTER TABLE webhooks ADD COLUMN previous_secret TEXT COLLATE "C";
ALTER TABLE webhooks ADD COLUMN previous_secret_until BIGINT;
CREATE TABLE webhook_retries (
  id            TEXT COLLATE "C" PRIMARY KEY,
  webhook_id    TEXT COLLATE "C" NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  event_id      TEXT COLLATE "C" NOT NULL,
  event_type    TEXT COLLATE "C" NOT NULL,
  body          TEXT COLLATE "C" NOT NULL,
  attempt       INTEGER NOT NULL,
  first_at      BIGINT NOT NULL,
  due_at        BIGINT NOT NULL,
  claimed_until BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX webhook_retries_due ON webhook_retries(due_at);
CREATE INDEX webhook_retries_hook ON webhook_retries(webhook_id);
`,
};
