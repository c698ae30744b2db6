import { OkSchema } from "@/lib/auth/schema.ts";
import { RecordSchema, RecordUpdateInput } from "@/lib/dns/schema.ts";
import { requireRecordScope } from "@/server/listeners/dns_api/key_scope.ts";
import { define } from "@/server/listeners/dns_api/context.ts";

export const meta = define.meta({
  GET: { summary: "One record", access: "viewer", response: RecordSchema },
  PUT: {
    summary: "Change a record's value and/or TTL (partial update)",
    access: "operator",
    body: RecordUpdateInput,
    response: RecordSchema,
  },
  DELETE: { summary: "Delete a record", access: "operator", response: OkSchema },
});

export const handler = define.handlers(meta, {
  async GET(ctx) {
    await requireRecordScope(ctx, "read", ctx.params.name, ctx.params.id);
    return await ctx.services.dns.getRecord(ctx.params.name, ctx.params.id);
  },
  async PUT(ctx) {
    const { name, id } = ctx.params;
    await requireRecordScope(ctx, "write", name, id);
    return await ctx.services.dns.updateRecord(ctx.auth.user.username, name, id, ctx.body);
  },
  async DELETE(ctx) {
    const { name, id } = ctx.params;
    await requireRecordScope(ctx, "write", name, id);
    return await ctx.services.dns.deleteRecord(ctx.auth.user.username, name, id);
  },
});
