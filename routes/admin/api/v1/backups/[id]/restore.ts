import { BackupRestoreSchema } from "@/lib/backup/schema.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  POST: {
    summary:
      "Restore the store from the backup without a restart (a safety backup of the current state first); 422 for a file that fails its checksum or integrity check, 409 schema_newer for one from a newer Palisade; nothing changes on either",
    access: "administrator",
    response: BackupRestoreSchema,
  },
});

export const handler = define.handlers(meta, {
  POST: (ctx) => ctx.services.backups.restore(ctx.params.id, ctx.auth.user.username),
});
