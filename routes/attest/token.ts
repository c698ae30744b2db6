/**
 * `POST /token` (docs/attestation_sites.md, "Tokens and siteverify"): the
 * embedded script registers a token it signed with its session's key; only
 * registered tokens pass siteverify.
 */
import { z } from "zod";
import { ConflictError, ForbiddenError, UnavailableError } from "@/lib/errors.ts";
import { define } from "@/server/listeners/attest/context.ts";
import { KiB } from "@/server/http/request_body.ts";

export const meta = define.meta({
  POST: {
    summary:
      "Register a token the page signed with its session's key: 403 when it is not acceptable (claims, site, Origin, session, signature, clock or hostname); 409 while the session's chain is shorter than the site's min_chain, or when it was issued already",
    access: "public",
    errors: [ForbiddenError, ConflictError, UnavailableError],
    maxBodyBytes: 4 * KiB,
    body: z.object({
      token: z.string().max(2048).regex(/^v1\.[A-Za-z0-9_-]+\.[0-9a-f]{128}$/).describe(
        "v1.<claims base64url>.<Ed25519 signature hex>",
      ),
    }),
    response: z.object({
      token: z.string(),
      expires_at: z.string().describe("ISO time after which siteverify refuses it"),
    }),
  },
});

export const handler = define.handlers(meta, {
  POST: (ctx) => {
    const tokens = ctx.services.attest.tokens;
    if (!tokens) throw new UnavailableError("Tokens are not available on this listener");
    return tokens.issue(ctx.body.token, ctx.req.headers.get("origin"));
  },
});
