/**
 * Attestation listener: this API faces the public internet and is called
 * from pages on other origins, so it answers CORS (no credentials are ever
 * involved) for the configured origins, and sets conservative headers.
 */
import { emptyResponse } from "@/server/http/respond.ts";
import { type AttestContext, define } from "@/server/listeners/attest/context.ts";

const ALLOW_METHODS = "GET, POST, OPTIONS";

function allowedOrigin(ctx: AttestContext): string | null {
  const origin = ctx.req.headers.get("origin");
  const allowed = ctx.services.config.attest.allowedOrigins;
  if (allowed.includes("*")) return "*";
  if (!origin) return null;
  // A registered site's origin is allowed too (docs/attestation_sites.md); /init then holds it to its site.
  return allowed.includes(origin) || ctx.services.attest.sites.hasOrigin(origin) ? origin : null;
}

export const handler = define.middleware((ctx) => {
  const origin = allowedOrigin(ctx);
  if (ctx.req.method === "OPTIONS") {
    const headers = new Headers({ "Access-Control-Max-Age": "600", Vary: "Origin" });
    if (origin) {
      headers.set("Access-Control-Allow-Origin", origin);
      headers.set("Access-Control-Allow-Methods", ALLOW_METHODS);
      headers.set("Access-Control-Allow-Headers", "Content-Type");
    }
    return emptyResponse(headers);
  }
  // Set before the route runs, so they go into the response as it is created.
  if (origin) ctx.headers.set("Access-Control-Allow-Origin", origin);
  ctx.headers.set("Vary", "Origin");
  // API answers say no-store already; a file served here gets it unless its route chose otherwise.
  ctx.headers.setDefault("Cache-Control", "no-store");
  return ctx.next();
});
