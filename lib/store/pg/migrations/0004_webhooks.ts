/** SQLite migration 20 (`lib/store/migrations/0020_webhooks.ts`) on PostgreSQL. */
import type { PgMigration } from "./mod.ts";

export const webhooks: PgMigration = {
  version: 4,
  name: "webhooks",
  sql: `
CREATE TABLE webhooks (
  id         TEXT COLLATE "C" PRIMARY KEY,
  url        TEXT COLLATE "C" NOT NULL,
  events     TEXT COLLATE "C" NOT NULL,
  secret     TEXT COLLATE "C" NOT NULL,
  enabled    SMALLINT NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  created_by TEXT COLLATE "C" NOT NULL
);
CREATE TABLE webhook_deliveries (
  id            TEXT COLLATE "C" PRIMARY KEY,
  webhook_id    TEXT COLLATE "C" NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  event_id      TEXT COLLATE "C" NOT NULL,
  event_type    TEXT COLLATE "C" NOT NULL,
  attempt       INTEGER NOT NULL,
  status        TEXT COLLATE "C" NOT NULL CHECK (status IN ('delivered', 'retrying', 'failed')),
  response_code INTEGER,
  error         TEXT COLLATE "C",
  at            BIGINT NOT NULL
);
CREATE INDEX webhook_deliveries_hook ON webhook_deliveries(webhook_id, at, attempt);
`,
};
