import type { Migration } from "../store.ts";

/**
 * Automatic ZSK rotation (docs/dns.md, "Rollover"): a zone's
 * `zsk_rotation_days`, NULL when off (the default). When set, the rollover
 * scheduler starts a ZSK rollover once the active ZSK has signed for that
 * many days. The rollover's own state is in `dnssec_keys` (migration 8).
 */
export const dnssecRotation: Migration = {
  version: 9,
  name: "dnssec-rotation",
  sql: `
ALTER TABLE dns_zones ADD COLUMN zsk_rotation_days INTEGER
  CHECK (zsk_rotation_days IS NULL OR zsk_rotation_days BETWEEN 1 AND 3650);
`,
};
