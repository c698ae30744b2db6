import {
  RecordCreateInput,
  RecordListSchema,
  RecordQuery,
  RecordSchema,
} from "@/lib/dns/schema.ts";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";
import { Status } from "@/server/http/status.ts";

export const meta = defineMeta({
  GET: {
    summary: "The zone's records, SOA first; `type` filters by record type",
    access: "viewer",
    query: RecordQuery,
    response: RecordListSchema,
  },
  POST: {
    summary: "Create a record (value validated per type, zone rules enforced)",
    access: "operator",
    body: RecordCreateInput,
    response: RecordSchema,
    status: Status.Created,
  },
});

export const handler = defineHandlers(meta, {
  GET: (ctx) => ctx.state.services.dns.listRecords(ctx.params.name, ctx.query.type),
  POST: (ctx) =>
    ctx.state.services.dns.createRecord(ctx.state.auth!.user.username, ctx.params.name, ctx.body),
});
