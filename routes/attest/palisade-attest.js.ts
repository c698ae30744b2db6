/**
 * The embeddable attestation script (static/build/palisade-attest.js, built
 * by `deno task build`). Served from the build folder rather than the
 * frontend folder, so it is there whatever PALISADE_ATTEST_FRONTEND points at.
 */
import { defineHandlers, defineMeta } from "@/server/http/define.ts";
import { serveBuiltFile } from "@/server/http/built_files.ts";

export const meta = defineMeta({
  GET: { summary: "The embeddable attestation script", access: "public", hidden: true },
});

export const handler = defineHandlers(meta, {
  GET: (ctx) =>
    serveBuiltFile(ctx.req, new URL("../../static/build/palisade-attest.js", import.meta.url)),
});
