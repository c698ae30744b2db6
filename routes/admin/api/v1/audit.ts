import { AuditPageSchema, AuditQuery } from "@/lib/audit/schema.ts";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";

export const meta = defineMeta({
  GET: {
    summary: "Audit records, newest first, filtered and paginated",
    access: "viewer",
    query: AuditQuery,
    response: AuditPageSchema,
  },
});

export const handler = defineHandlers(meta, {
  GET(ctx) {
    return ctx.state.services.audit.list(ctx.query);
  },
});
