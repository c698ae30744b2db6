import { VersionSchema } from "@/lib/system/schema.ts";
import { define } from "@/server/listeners/dns_api/context.ts";

export const meta = define.meta({
  GET: {
    summary: "Version and build information, and where the /api/v1 compatibility policy is",
    access: "public",
    response: VersionSchema,
  },
});

export const handler = define.handlers(meta, {
  GET: (ctx) => ctx.services.system.version(),
});
