import type { Migration } from "../store.ts";

/**
 * The dashboard lists a site's latest measured sessions
 * (docs/attestation_sites.md, "Per-site analytics"). The index is written
 * when a session's signals row is first inserted; the heartbeat's UPSERT
 * changes neither `site_id` nor `created_at`, so later heartbeats do not
 * touch it.
 */
export const attestSignalsSite: Migration = {
  version: 17,
  name: "attest-signals-site",
  sql: `CREATE INDEX attest_signals_site ON attest_signals(site_id, created_at);`,
};
