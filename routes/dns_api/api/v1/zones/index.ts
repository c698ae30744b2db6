import { z } from "zod";
import { ZoneCreateInput, ZoneSummarySchema } from "@/lib/dns/schema.ts";
import { Status } from "@/server/http/status.ts";
import { define } from "@/server/listeners/dns_api/context.ts";

export const meta = define.meta({
  GET: {
    summary: "List zones with their record counts",
    access: "viewer",
    response: z.object({ zones: z.array(ZoneSummarySchema) }),
  },
  POST: {
    summary: "Create a zone with its SOA and apex NS (records_count 1)",
    access: "operator",
    body: ZoneCreateInput,
    response: ZoneSummarySchema,
    status: Status.Created,
  },
});

export const handler = define.handlers(meta, {
  GET: (ctx) => ({ zones: ctx.services.dns.listZones() }),
  POST(ctx) {
    const z = ctx.services.dns.createZone(ctx.auth.user.username, ctx.body);
    return {
      name: z.name,
      records_count: z.records_count,
      created_at: z.created_at,
      updated_at: z.updated_at,
    };
  },
});
