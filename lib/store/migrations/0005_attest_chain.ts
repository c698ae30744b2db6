import type { Migration } from "../store.ts";

/**
 * Drops the index on attestation chain lengths. Every accepted heartbeat
 * raises its session's chain length, so the index was rewritten twice per
 * heartbeat, most of the cost of its write. The highest chain length now lives in memory shared
 * by the threads serving the listener (lib/attest/attest.ts); the table is
 * scanned for it only at start and after a purge removed the longest chain.
 */
export const attestChain: Migration = {
  version: 5,
  name: "attest-chain",
  sql: `DROP INDEX attest_sessions_chain;`,
};
