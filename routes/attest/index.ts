import { defineHandlers, defineMeta } from "@/server/http/define.ts";
import { serveFile } from "@/server/http/static_files.ts";

export const meta = defineMeta({
  GET: { summary: "The frontend's index.html", access: "public", hidden: true },
});

export const handler = defineHandlers(meta, {
  GET: (ctx) => serveFile(ctx.req, ctx.state.services.config.attest.frontendDir, "index.html"),
});
