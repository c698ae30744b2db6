import { UnauthorizedError } from "@/lib/errors.ts";
import { pdnsKeyMatches } from "@/lib/dns/pdns/key.ts";
import { bareErrorOf } from "@/server/http/bare_error.ts";
import { define } from "@/server/listeners/dns_api/context.ts";

// PowerDNS's API version probe (lego's pdns provider reads it); same key as /api/v1/servers.
export const meta = define.meta({
  GET: { summary: "PowerDNS API: its versions", access: "public", hidden: true },
});

export const handler = define.handlers(meta, {
  async GET(ctx) {
    const sent = ctx.req.headers.get("x-api-key");
    // The configured key, or a scoped one the listener's middleware verified.
    if (!ctx.state.apiKey && !await pdnsKeyMatches(ctx.services.config.pdnsApiKey, sent)) {
      return bareErrorOf(new UnauthorizedError("Unauthorized"), "PowerDNS", () => {});
    }
    return [{ url: "/api/v1", version: 1 }];
  },
});
