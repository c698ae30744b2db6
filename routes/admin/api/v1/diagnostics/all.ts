import { DiagnosticsReportSchema } from "@/lib/system/diagnostics_schema.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "Checks of every subsystem and the worst status across them (ok, warn or fail)",
    access: "viewer",
    response: DiagnosticsReportSchema,
  },
});

export const handler = define.handlers(meta, {
  GET: (ctx) => ctx.services.diagnostics.all(),
});
