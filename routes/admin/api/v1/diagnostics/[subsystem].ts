import { SubsystemReportSchema } from "@/lib/system/diagnostics_schema.ts";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";

export const meta = defineMeta({
  GET: {
    summary: "Checks of one subsystem: database or tunnels (404 names the known ones)",
    access: "viewer",
    response: SubsystemReportSchema,
  },
});

export const handler = defineHandlers(meta, {
  GET: (ctx) => ctx.state.services.diagnostics.run(ctx.params.subsystem),
});
