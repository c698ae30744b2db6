/**
 * The attestation core (wasm/build/attest.wasm) for the embeddable script, as
 * application/wasm so that browsers can compile it while it streams in.
 * Served whatever PALISADE_ATTEST_FRONTEND points at.
 */
import { serveBuiltFile } from "@/server/http/built_files.ts";
import { define } from "@/server/listeners/attest/context.ts";

export const meta = define.meta({
  GET: { summary: "The attestation WASM module", access: "public", hidden: true },
});

export const handler = define.handlers(meta, {
  GET: (ctx) => serveBuiltFile(ctx.req, new URL("../../wasm/build/attest.wasm", import.meta.url)),
});
