import { BackupListSchema } from "@/lib/backup/schema.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "Backups of the store, newest first (their manifests; administrators only)",
    access: "administrator",
    response: BackupListSchema,
  },
});

export const handler = define.handlers(meta, {
  GET: async (ctx) => ({ backups: await ctx.services.backups.list() }),
});
