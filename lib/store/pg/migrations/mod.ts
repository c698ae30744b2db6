/**
 * Every PostgreSQL schema migration, in version order, recorded in
 * `schema_migrations` (lib/store/pg/pg_store.ts). Version 1 is the baseline
 * equal to SQLite migrations 1-17; a later SQLite migration gets its
 * PostgreSQL twin here, so both engines keep the same tables and columns
 * (tests/store/pg_schema_test.ts compares them).
 */
import { baseline } from "./0001_baseline.ts";
import { dnsApiKeys } from "./0002_dns_api_keys.ts";
import { twoFactor } from "./0003_two_factor.ts";
import { webhooks } from "./0004_webhooks.ts";
import { peerDns } from "./0005_peer_dns.ts";
import { dnsHistory } from "./0006_dns_history.ts";
import { passkeys } from "./0007_passkeys.ts";
import { oidc } from "./0008_oidc.ts";
import { peerLimits } from "./0009_peer_limits.ts";
import { tunnelHistory } from "./0010_tunnel_history.ts";
import { webhookRetries } from "./0011_webhook_retries.ts";
import { oidcLogout } from "./0012_oidc_logout.ts";

/** One schema step. `version` values are unique and applied in ascending order. */
export interface PgMigration {
  version: number;
  name: string;
  sql: string;
}

export const pgMigrations: PgMigration[] = [
  baseline,
  dnsApiKeys,
  twoFactor,
  webhooks,
  peerDns,
  dnsHistory,
  passkeys,
  oidc,
  peerLimits,
  tunnelHistory,
  webhookRetries,
  oidcLogout,
];
