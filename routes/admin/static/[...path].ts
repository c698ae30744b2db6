import { fromFileUrl } from "@/server/http/paths.ts";
import { serveFile } from "@/server/http/static_files.ts";
import { define } from "@/server/listeners/admin/context.ts";

const STATIC_DIR = fromFileUrl(new URL("../../../static/", import.meta.url));

export const meta = define.meta({
  GET: { summary: "Dashboard assets", access: "public", hidden: true },
});

export const handler = define.handlers(meta, {
  GET: (ctx) => serveFile(ctx.req, STATIC_DIR, ctx.params.path),
});
