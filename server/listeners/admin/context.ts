/**
 * What the admin listener's routes (dashboard pages, tunnel API, event
 * WebSocket) may use: the services below and nothing else. Route files
 * declare themselves with this `define`.
 */
import type { Authenticated } from "../../../lib/auth/auth.ts";
import type { Config } from "../../../lib/config/config.ts";
import type { Services } from "../../../lib/services.ts";
import { type Context, createDefine } from "../../http/define.ts";

export type AdminServices =
  & AdminSettings
  & Pick<
    Services,
    | "log"
    | "events"
    | "audit"
    | "auth"
    | "users"
    | "settings"
    | "system"
    | "diagnostics"
    | "cli"
    | "tunnels"
    | "dns"
    | "dnsApiKeys"
    | "attestRates"
    | "attestSites"
    | "backups"
    | "webhooks"
    | "sso"
  >;

/**
 * What the admin routes read of the configuration: whether session cookies
 * must be `Secure`, and which proxies may name the client.
 */
interface AdminSettings {
  config: Pick<Config, "secureCookies" | "trustedProxies" | "webauthn">;
}

/** The admin listener's slice of the process's services. */
export function adminServices(s: Services): AdminServices {
  const { log, events, audit, auth, users, settings, system, diagnostics, cli, tunnels, dns } = s;
  return {
    config: {
      secureCookies: s.config.secureCookies,
      trustedProxies: s.config.trustedProxies,
      webauthn: s.config.webauthn,
    },
    log,
    events,
    audit,
    auth,
    users,
    settings,
    system,
    diagnostics,
    cli,
    tunnels,
    dns,
    dnsApiKeys: s.dnsApiKeys,
    attestRates: s.attestRates,
    attestSites: s.attestSites,
    backups: s.backups,
    webhooks: s.webhooks,
    sso: s.sso,
  };
}

export const define = createDefine<AdminServices>();

/** The context of a request by a signed-in user (every dashboard page), for a page's helpers. */
export type SignedInContext<Body = unknown, Query = unknown> = Context<
  Body,
  Query,
  AdminServices,
  Authenticated
>;
