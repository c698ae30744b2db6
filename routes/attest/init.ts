import { AttestInitError } from "@/lib/attest/attest.ts";
import { InitRequest, InitResponseSchema } from "@/lib/attest/schema.ts";
import { HostError } from "@/lib/errors.ts";
import { defineHandlers, defineMeta } from "@/server/define.ts";

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
  POST(ctx) {
    try {
      return ctx.state.services.attest.init(ctx.body.public_key, ctx.remoteAddr);
    } catch (err) {
      // The spec's init failure is a 500 without a meaningful body; the reason is logged and counted.
      if (err instanceof AttestInitError) throw new HostError("Session creation failed");
      throw err;
    }
  },
});
