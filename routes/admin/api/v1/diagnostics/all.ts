import { DiagnosticsReportSchema } from "@/lib/system/diagnostics_schema.ts";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";

export const meta = defineMeta({
  GET: {
    summary: "Checks of every subsystem (database, tunnels) and the worst status across them",
    access: "viewer",
    response: DiagnosticsReportSchema,
  },
});

export const handler = defineHandlers(meta, {
  GET: (ctx) => ctx.state.services.diagnostics.all(),
});
