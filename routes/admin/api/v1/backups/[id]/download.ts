import { define } from "@/server/listeners/admin/context.ts";
import { attachment } from "@/server/http/attachment.ts";

export const meta = define.meta({
  GET: {
    summary:
      "Download the backup's SQLite file (holds every secret of the store: private keys, password hashes; audited)",
    access: "administrator",
    produces: "application/vnd.sqlite3",
  },
});

export const handler = define.handlers(meta, {
  async GET(ctx) {
    const file = await ctx.services.backups.download(ctx.params.id, ctx.auth.user.username);
    const opened = await Deno.open(file.path);
    // The id is checked against [0-9TZ-a-f] before it gets here: the name is safe.
    return attachment(opened.readable, file.filename, "application/vnd.sqlite3", file.size);
  },
});
