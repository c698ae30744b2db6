import { BackupManifestSchema } from "@/lib/backup/schema.ts";
import { removableMember } from "@/server/http/collection.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta(removableMember({
  member: BackupManifestSchema,
  read: { summary: "One backup's manifest", access: "administrator" },
  remove: { summary: "Delete the backup's file and manifest", access: "administrator" },
}));

export const handler = define.handlers(meta, {
  GET: (ctx) => ctx.services.backups.get(ctx.params.id),
  async DELETE(ctx) {
    await ctx.services.backups.delete(ctx.params.id, ctx.auth.user.username);
    return { success: true, message: "Backup deleted" };
  },
});
