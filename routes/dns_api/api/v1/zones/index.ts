import { z } from "zod";
import { ZoneCreateInput, ZoneSummarySchema } from "@/lib/dns/schema.ts";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";
import { Status } from "@/server/http/status.ts";

export const meta = defineMeta({
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

export const handler = defineHandlers(meta, {
  GET: (ctx) => ({ zones: ctx.state.services.dns.listZones() }),
  POST(ctx) {
    const z = ctx.state.services.dns.createZone(ctx.state.auth!.user.username, ctx.body);
    return {
      name: z.name,
      records_count: z.records_count,
      created_at: z.created_at,
      updated_at: z.updated_at,
    };
  },
});
