import { SubsystemReportSchema } from "@/lib/system/diagnostics_schema.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "Checks of one subsystem (docs/tunnels.md, Diagnostics); 404 names the known ones",
    access: "viewer",
    response: SubsystemReportSchema,
  },
});

export const handler = define.handlers(meta, {
  GET: (ctx) => ctx.services.diagnostics.run(ctx.params.subsystem),
});
