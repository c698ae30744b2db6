import { InitRequest, InitResponseSchema } from "@/lib/attest/schema.ts";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";

export const meta = defineMeta({
  POST: {
    summary:
      "Create a session for the browser's Ed25519 public key (500 when the key or storage is invalid)",
    access: "public",
    body: InitRequest,
    response: InitResponseSchema,
  },
});

export const handler = defineHandlers(meta, {
  // A failure is AttestInitError: the spec's 500 without detail (server/http/errors.ts).
  POST: (ctx) => ctx.state.services.attest.init(ctx.body.public_key, ctx.remoteAddr),
});
