/**
 * The embeddable attestation script (static/build/palisade-attest.js, built
 * by `deno task build`). Served from the build folder rather than the
 * frontend folder, so it is there whatever PALISADE_ATTEST_FRONTEND points at.
 */
import { serveBuiltFile } from "@/server/http/built_files.ts";
import { define } from "@/server/listeners/attest/context.ts";

export const meta = define.meta({
  GET: { summary: "The embeddable attestation script", access: "public", hidden: true },
});

export const handler = define.handlers(meta, {
  GET: (ctx) =>
    serveBuiltFile(ctx.req, new URL("../../static/build/palisade-attest.js", import.meta.url)),
});
