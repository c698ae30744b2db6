/**
 * How the store file is tuned for the attestation workload, the heaviest
 * writer by far: every accepted heartbeat rewrites a session row of
 * ~750 bytes, anywhere in the table. The process and each attestation thread
 * open the store with these settings (main.ts, server/listeners/attest/).
 */
import type { StoreTuning } from "../store/store.ts";

export const ATTEST_STORE_TUNING: StoreTuning = {
  // A commit writes whole pages to the WAL; a session row fills most of a
  // 2 KiB page, so larger pages write more bytes per heartbeat and smaller
  // ones save nothing. Only takes effect when the file is created.
  pageSize: 2048,
  // Hot session pages are rewritten again and again: checkpointing every
  // 10,000 pages instead of SQLite's 1,000 copies such a page back once per
  // checkpoint rather than after almost every write of it.
  walAutocheckpointPages: 10_000,
  // After a checkpoint the WAL is truncated back to 64 MiB.
  journalSizeLimitBytes: 64 * 1024 * 1024,
  // 32 MiB of page cache keeps the sessions table in memory.
  cacheSizeKib: 32 * 1024,
};
