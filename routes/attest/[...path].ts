import { serveFile } from "@/server/http/static_files.ts";
import { define } from "@/server/listeners/attest/context.ts";

export const meta = define.meta({
  GET: { summary: "Static frontend files", access: "public", hidden: true },
});

export const handler = define.handlers(meta, {
  GET: (ctx) => serveFile(ctx.req, ctx.services.config.attest.frontendDir, ctx.params.path),
});
