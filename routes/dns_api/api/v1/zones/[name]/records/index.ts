import {
  RecordCreateInput,
  RecordListSchema,
  RecordQuery,
  RecordSchema,
} from "@/lib/dns/schema.ts";
import { Status } from "@/server/http/status.ts";
import { define } from "@/server/listeners/dns_api/context.ts";

export const meta = define.meta({
  GET: {
    summary:
      "The zone's records, SOA first; `type` filters by record type; paged by limit and cursor or offset (all without limit)",
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

export const handler = define.handlers(meta, {
  GET: (ctx) => ctx.services.dns.listRecordPage(ctx.params.name, ctx.query.type, ctx.query),
  POST: (ctx) => ctx.services.dns.createRecord(ctx.auth.user.username, ctx.params.name, ctx.body),
});
