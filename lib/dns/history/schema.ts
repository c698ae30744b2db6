/**
 * Zod schemas of the history routes (docs/dns.md, "History and revert") and
 * the JSON of a change set as the DNS API returns it.
 */
import { z } from "zod";
import { isoTime } from "../../clock.ts";
import { HISTORY_PAGE } from "./history.ts";
import type { HistoryEntry } from "./history_repo.ts";

export const HistoryQuery = z.object({
  limit: z.coerce.number().int().min(1).max(HISTORY_PAGE).optional().describe(
    `Change sets per page, 1–${HISTORY_PAGE} (default ${HISTORY_PAGE})`,
  ),
  before: z.coerce.number().int().min(1).optional().describe(
    "Only change sets older than this id (the last id of the previous page)",
  ),
});

const HistoryRecordSchema = z.object({ value: z.string(), ttl: z.number().int() });

const HistoryChangeSchema = z.object({
  id: z.number().int(),
  serial_from: z.number().int(),
  serial_to: z.number().int(),
  actor: z.string(),
  summary: z.string(),
  reverts: z.number().int().nullable().describe("The change set this one reverted"),
  created_at: z.string(),
  rrsets: z.array(z.object({
    name: z.string(),
    type: z.string(),
    before: z.array(HistoryRecordSchema),
    after: z.array(HistoryRecordSchema),
  })),
});

export const HistoryListSchema = z.object({
  zone: z.string(),
  changes: z.array(HistoryChangeSchema),
});

export const RevertResultSchema = z.object({
  zone: z.string(),
  reverted: z.number().int(),
  serial: z.number().int(),
});

export type HistoryChangeJson = z.infer<typeof HistoryChangeSchema>;

/** A change set as the API returns it. */
export function historyJson(e: HistoryEntry): HistoryChangeJson {
  return {
    id: e.id,
    serial_from: e.serialFrom,
    serial_to: e.serialTo,
    actor: e.actor,
    summary: e.summary,
    reverts: e.reverts,
    created_at: isoTime(e.createdAt),
    rrsets: e.changes,
  };
}
