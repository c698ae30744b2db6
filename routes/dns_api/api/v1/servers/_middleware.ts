/**
 * The PowerDNS-compatible API's door (docs/dns.md, "PowerDNS-compatible
 * API"): the caller is the `X-API-Key` header. The configured key
 * (PALISADE_PDNS_API_KEY) gets every right (`FULL_SCOPE`); anything else is
 * refused with 401. The scope goes into `ctx.state.pdnsScope`, from which
 * every route below decides through `requirePdnsScope`
 * (lib/dns/pdns/scope_check.ts). Errors answer in PowerDNS's shape,
 * `{"error": "…"}`, with the status of their class.
 */
import { UnauthorizedError } from "@/lib/errors.ts";
import { pdnsKeyMatches } from "@/lib/dns/pdns/key.ts";
import { FULL_SCOPE } from "@/lib/dns/pdns/scope_check.ts";
import { bareErrorOf, reshapedError } from "@/server/http/bare_error.ts";
import { define } from "@/server/listeners/dns_api/context.ts";

export const handler = define.middleware(async (ctx) => {
  try {
    const sent = ctx.req.headers.get("x-api-key");
    if (!await pdnsKeyMatches(ctx.services.config.pdnsApiKey, sent)) {
      throw new UnauthorizedError("Unauthorized");
    }
    ctx.state.pdnsScope = FULL_SCOPE;
    ctx.state.pdnsActor = "pdns-api-key";
    return await reshapedError(await ctx.next());
  } catch (err) {
    return bareErrorOf(err, "PowerDNS", (e) => {
      ctx.services.log.error("request failed", { path: ctx.url.pathname, err: e });
    });
  }
});
