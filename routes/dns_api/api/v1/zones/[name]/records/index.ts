import {
  RecordCreateInput,
  RecordListSchema,
  RecordQuery,
  RecordSchema,
} from "@/lib/dns/schema.ts";
import { Status } from "@/server/http/status.ts";
import { normalizeZoneName, ownerInZone } from "@/lib/dns/names.ts";
import { requireScope } from "@/server/listeners/dns_api/key_scope.ts";
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
  async GET(ctx) {
    // A listing shows every record of the zone: a key limited to some types or names is refused.
    await requireScope(ctx, { access: "read", zone: ctx.params.name, allRecords: true });
    return await ctx.services.dns.listRecordPage(ctx.params.name, ctx.query.type, ctx.query);
  },
  async POST(ctx) {
    const zone = normalizeZoneName(ctx.params.name);
    await requireScope(ctx, { access: "read", zone });
    const name = ownerInZone(ctx.body.domain, zone);
    await requireScope(ctx, { access: "write", zone, type: ctx.body.type, name });
    return await ctx.services.dns.createRecord(ctx.auth.user.username, ctx.params.name, ctx.body);
  },
});
