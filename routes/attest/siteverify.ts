/**
 * `POST /siteverify`, compatible with Cloudflare Turnstile's
 * (docs/attestation_sites.md, "Tokens and siteverify"): form-encoded or
 * JSON, always 200 with `success` and `error-codes`.
 */
import { z } from "zod";
import { UnavailableError } from "@/lib/errors.ts";
import { define } from "@/server/listeners/attest/context.ts";
import { KiB } from "@/server/http/request_body.ts";

// Strings, as a form sends them; a JSON body with another type is refused (400) before siteverify.
const field = (what: string) => z.string().max(4096).optional().describe(what);

export const meta = define.meta({
  POST: {
    summary:
      "Verify a token with the site's secret (Turnstile's siteverify): success, challenge_ts, hostname, error-codes, action, cdata, chain_length, session_age_ms, signals",
    access: "public",
    accepts: ["json", "form"],
    errors: [UnavailableError],
    maxBodyBytes: 8 * KiB,
    body: z.object({
      secret: field("The site's secret (sk_…)"),
      response: field("The token the form received (palisade-response)"),
      remoteip: field("The visitor's address; accepted, not used"),
      idempotency_key: field("Repeat it to get the first answer again"),
    }),
    response: z.object({
      success: z.boolean(),
      "error-codes": z.array(z.string()),
      challenge_ts: z.string().optional(),
      hostname: z.string().optional(),
      messages: z.array(z.string()).optional(),
      action: z.string().optional(),
      cdata: z.string().optional(),
      chain_length: z.number().optional(),
      session_age_ms: z.number().optional(),
      signals: z.record(z.string(), z.unknown()).optional(),
    }),
  },
});

export const handler = define.handlers(meta, {
  POST: (ctx) => {
    const tokens = ctx.services.attest.tokens;
    if (!tokens) throw new UnavailableError("Siteverify is not available on this listener");
    return tokens.verify(ctx.body);
  },
});
