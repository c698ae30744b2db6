import { OkSchema } from "@/lib/auth/schema.ts";
import { RecordSchema, RecordUpdateInput } from "@/lib/dns/schema.ts";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";

export const meta = defineMeta({
  GET: { summary: "One record", access: "viewer", response: RecordSchema },
  PUT: {
    summary: "Change a record's value and/or TTL (partial update)",
    access: "operator",
    body: RecordUpdateInput,
    response: RecordSchema,
  },
  DELETE: { summary: "Delete a record", access: "operator", response: OkSchema },
});

export const handler = defineHandlers(meta, {
  GET: (ctx) => ctx.state.services.dns.getRecord(ctx.params.name, ctx.params.id),
  PUT: (ctx) =>
    ctx.state.services.dns.updateRecord(
      ctx.state.auth!.user.username,
      ctx.params.name,
      ctx.params.id,
      ctx.body,
    ),
  DELETE: (ctx) =>
    ctx.state.services.dns.deleteRecord(
      ctx.state.auth!.user.username,
      ctx.params.name,
      ctx.params.id,
    ),
});
