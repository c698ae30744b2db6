import { OkSchema } from "@/lib/auth/schema.ts";
import { RecordSchema, RecordUpdateInput } from "@/lib/dns/schema.ts";
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
  GET: (ctx) => ctx.services.dns.getRecord(ctx.params.name, ctx.params.id),
  PUT: (ctx) =>
    ctx.services.dns.updateRecord(
      ctx.auth.user.username,
      ctx.params.name,
      ctx.params.id,
      ctx.body,
    ),
  DELETE: (ctx) =>
    ctx.services.dns.deleteRecord(
      ctx.auth.user.username,
      ctx.params.name,
      ctx.params.id,
    ),
});
