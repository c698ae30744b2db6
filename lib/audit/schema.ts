/** Zod schemas of the audit listing at the API edge. */
import { z } from "zod";
import { MAX_PAGE_LIMIT, pageQueryFields } from "../paging.ts";
import { documented } from "../schema_doc.ts";

/** What `parseTime` takes; it answers 400 with its own message for anything else. */
const Time = documented(z.string(), {
  description: "ISO 8601 time or Unix milliseconds",
  anyOf: [{ pattern: "^[0-9]+$" }, { format: "date-time" }],
});

/**
 * Query of `GET /audit`; times are ISO 8601 or Unix milliseconds. The paging
 * fields are the shared ones (docs/api.md, "Pagination"), except that the
 * audit always paged: its limit defaults to 50.
 */
export const AuditQuery = z.object({
  event_type: z.string().max(100).optional(),
  resource_type: z.string().max(100).optional(),
  resource_id: z.string().max(200).optional(),
  actor: z.string().max(100).optional(),
  since: Time.optional().transform((v, ctx) => parseTime(v, ctx, "since")),
  until: Time.optional().transform((v, ctx) => parseTime(v, ctx, "until")),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(50).describe(
    `Page size, 1–${MAX_PAGE_LIMIT}; default 50`,
  ),
  cursor: pageQueryFields.cursor,
  offset: pageQueryFields.offset,
});

function parseTime(v: string | undefined, ctx: z.RefinementCtx, name: string): number | undefined {
  if (v === undefined || v === "") return undefined;
  const ms = /^\d+$/.test(v) ? Number(v) : Date.parse(v);
  if (Number.isNaN(ms)) {
    ctx.addIssue({
      code: "custom",
      message: `"${name}" must be an ISO 8601 time or Unix milliseconds`,
    });
    return z.NEVER;
  }
  return ms;
}

export const AuditRecordSchema = z.object({
  id: z.number().int(),
  time: z.string(),
  actor: z.string(),
  event_type: z.string(),
  message: z.string(),
  resource_type: z.string(),
  resource_id: z.string(),
});

export const AuditPageSchema = z.object({
  records: z.array(AuditRecordSchema),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
  next_cursor: z.string().nullable().describe(
    "Pass as cursor for the next (older) page; null on the last page",
  ),
});
