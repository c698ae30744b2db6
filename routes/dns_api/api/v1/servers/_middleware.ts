/**
 * The PowerDNS-compatible API's door (docs/dns.md, "PowerDNS-compatible
 * API"): the caller is the `X-API-Key` header. The configured key
 * (PALISADE_PDNS_API_KEY) gets every right (`FULL_SCOPE`); a scoped key
 * (docs/dns.md, "API keys"; verified by the listener's middleware into
 * `ctx.state.apiKey`) gets its own scope; anything else is refused with 401.
 * The scope goes into `ctx.state.pdnsScope`, from which every route below
 * decides through `requirePdnsScope` (lib/dns/pdns/scope_check.ts); a
 * scoped key's refusal is audited like on Palisade's own routes. Errors
 * answer in PowerDNS's shape, `{"error": "…"}`, with the status of their class.
 */
import { UnauthorizedError } from "@/lib/errors.ts";
import { keyActor } from "@/lib/dns/api_keys/api_key_service.ts";
import { pdnsKeyMatches } from "@/lib/dns/pdns/key.ts";
import { FULL_SCOPE, ScopeRefusal } from "@/lib/dns/pdns/scope_check.ts";
import { bareErrorOf, reshapedError } from "@/server/http/bare_error.ts";
import { define } from "@/server/listeners/dns_api/context.ts";

export const handler = define.middleware(async (ctx) => {
  try {
    const sent = ctx.req.headers.get("x-api-key");
    const key = ctx.state.apiKey;
    if (await pdnsKeyMatches(ctx.services.config.pdnsApiKey, sent)) {
      ctx.state.pdnsScope = FULL_SCOPE;
      ctx.state.pdnsActor = "pdns-api-key";
    } else if (key) {
      ctx.state.pdnsScope = key.scope;
      ctx.state.pdnsActor = keyActor(key);
    } else {
      throw new UnauthorizedError("Unauthorized");
    }
    return await reshapedError(await ctx.next());
  } catch (caught) {
    let err = caught;
    if (err instanceof ScopeRefusal && ctx.state.apiKey && ctx.state.pdnsScope !== FULL_SCOPE) {
      // Audited as on Palisade's own routes; refuse() throws the audited 403.
      err = await ctx.services.dnsApiKeys.refuse(ctx.state.apiKey, err.what).catch((e) => e);
    }
    return bareErrorOf(err, "PowerDNS", (e) => {
      ctx.services.log.error("request failed", { path: ctx.url.pathname, err: e });
    });
  }
});
