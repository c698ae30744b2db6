import { fromFileUrl } from "@/server/http/paths.ts";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";
import { serveFile } from "@/server/http/static_files.ts";

const STATIC_DIR = fromFileUrl(new URL("../../../static/", import.meta.url));

export const meta = defineMeta({
  GET: { summary: "Dashboard assets", access: "public", hidden: true },
});

export const handler = defineHandlers(meta, {
  GET: (ctx) => serveFile(ctx.req, STATIC_DIR, ctx.params.path),
});
