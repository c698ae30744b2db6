import { define } from "@/server/listeners/admin/context.ts";

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
    return new Response(opened.readable, {
      headers: {
        "Content-Type": "application/vnd.sqlite3",
        "Content-Length": String(file.size),
        // The id is checked against [0-9TZ-a-f] before it gets here, so quoting is enough.
        "Content-Disposition": `attachment; filename="${file.filename}"`,
        "Cache-Control": "no-store",
      },
    });
  },
});
