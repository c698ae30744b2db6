import { z } from "zod";
import {
  AttestInitError,
  ForbiddenError,
  RateLimitError,
  UnavailableError,
  ValidationError,
} from "@/lib/errors.ts";
import { InitRequest, InitResponseSchema } from "@/lib/attest/schema.ts";
import { requestClientAddress } from "@/server/http/client_address.ts";
import { define } from "@/server/listeners/attest/context.ts";
import { KiB } from "@/server/http/request_body.ts";

export const meta = define.meta({
  POST: {
    summary:
      "Create a session for the browser's Ed25519 public key (500 when the key or storage is invalid); with site_key, for that site: 400 for an unknown key, 403 when the Origin is not one of the site's",
    access: "public",
    errors: [ValidationError, ForbiddenError, RateLimitError, AttestInitError, UnavailableError],
    maxBodyBytes: 4 * KiB,
    query: z.object({
      site_key: z.string().max(64).optional().describe(
        "The site's public key (pk_…), as the page's data-site-key gives it",
      ),
    }),
    body: InitRequest,
    response: InitResponseSchema,
  },
});

export const handler = define.handlers(meta, {
  // A failure is AttestInitError: the spec's 500 without detail (server/http/errors.ts).
  // The per-address limit keys on the client a trusted proxy names, else on the TCP peer.
  POST: async (ctx) =>
    await ctx.services.attest.init(ctx.body.public_key, requestClientAddress(ctx), {
      key: ctx.query.site_key ?? null,
      origin: ctx.req.headers.get("origin"),
    }),
});
