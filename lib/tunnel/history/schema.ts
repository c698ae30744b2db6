/**
 * Zod schemas of the history routes of peers, firewall rules and routes
 * (docs/tunnels.md, "History and revert") and the JSON of a change as the
 * API returns it: both states (without secrets) and the fields that differ.
 */
import { z } from "zod";
import { isoTime } from "../../clock.ts";
import { HISTORY_PAGE } from "./history.ts";
import { HISTORY_KINDS, type TunnelChange } from "./history_repo.ts";
import { changedFields } from "./revert.ts";

export const TunnelHistoryQuery = z.object({
  limit: z.coerce.number().int().min(1).max(HISTORY_PAGE).optional().describe(
    `Changes per page, 1–${HISTORY_PAGE} (default ${HISTORY_PAGE})`,
  ),
  before: z.coerce.number().int().min(1).optional().describe(
    "Only changes older than this id (the last id of the previous page)",
  ),
});

const State = z.record(z.string(), z.unknown()).nullable();

const ChangeSchema = z.object({
  id: z.number().int(),
  actor: z.string(),
  summary: z.string(),
  reverts: z.number().int().nullable().describe("The change this one reverted"),
  created_at: z.string(),
  before: State.describe("The object before the change, without secrets; null when created"),
  after: State.describe("The object after the change, without secrets; null when deleted"),
  fields: z.array(z.object({ field: z.string(), before: z.unknown(), after: z.unknown() }))
    .describe("The fields that differ"),
});

export const TunnelHistorySchema = z.object({
  kind: z.enum(HISTORY_KINDS),
  object_id: z.string(),
  exists: z.boolean().describe("False once the object is deleted: its history stays"),
  label: z.string().describe("Its name (a route: its destination), now or as last kept"),
  changes: z.array(ChangeSchema),
});

export const TunnelRevertSchema = z.object({
  kind: z.enum(HISTORY_KINDS),
  object_id: z.string(),
  reverted: z.number().int(),
});

/** A field that differs between the two states of a change. */
export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

/** The fields a change changed, with their values before and after. */
export function fieldChanges(c: TunnelChange): FieldChange[] {
  return changedFields(c.before, c.after).map((field) => ({
    field,
    before: c.before?.[field] ?? null,
    after: c.after?.[field] ?? null,
  }));
}

/** A change as the API returns it. */
export function changeJson(c: TunnelChange): z.infer<typeof ChangeSchema> {
  return {
    id: c.id,
    actor: c.actor,
    summary: c.summary,
    reverts: c.reverts,
    created_at: isoTime(c.createdAt),
    before: c.before,
    after: c.after,
    fields: fieldChanges(c),
  };
}
