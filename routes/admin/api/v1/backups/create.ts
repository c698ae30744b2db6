import { BackupManifestSchema } from "@/lib/backup/schema.ts";
import { Status } from "@/server/http/status.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  POST: {
    summary:
      "Snapshot the live store into <data>/backups (online; holds every secret of the store); PALISADE_BACKUP_KEEP then deletes the oldest",
    access: "administrator",
    response: BackupManifestSchema,
    status: Status.Created,
  },
});

export const handler = define.handlers(meta, {
  POST: (ctx) => ctx.services.backups.create(ctx.auth.user.username),
});
