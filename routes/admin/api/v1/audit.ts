import { AuditPageSchema, AuditQuery } from "@/lib/audit/schema.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "Audit records, newest first, filtered and paginated",
    access: "viewer",
    query: AuditQuery,
    response: AuditPageSchema,
  },
});

export const handler = define.handlers(meta, {
  GET(ctx) {
    return ctx.services.audit.list(ctx.query);
  },
});
