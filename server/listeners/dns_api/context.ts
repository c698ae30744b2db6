/**
 * What the DNS API listener's routes may use: zones and records, its own
 * JWT login and the users it authenticates. Route files declare themselves
 * with this `define`.
 */
import type { Config } from "../../../lib/config/config.ts";
import type { Services } from "../../../lib/services.ts";
import { createDefine } from "../../http/define.ts";

export type DnsApiServices =
  & Pick<Services, "log" | "dns" | "dnsApiKeys" | "jwt" | "auth" | "users" | "system">
  & {
    /** Which proxies may name the client (the login throttle keys on it). */
    config: Pick<Config, "trustedProxies" | "pdnsApiKey">;
  };

/** The DNS API listener's slice of the process's services. */
export function dnsApiServices(s: Services): DnsApiServices {
  return {
    config: { trustedProxies: s.config.trustedProxies, pdnsApiKey: s.config.pdnsApiKey },
    log: s.log,
    dns: s.dns,
    dnsApiKeys: s.dnsApiKeys,
    jwt: s.jwt,
    // Its own login throttle: failures here never make the admin login wait, nor the reverse.
    auth: s.dnsAuth,
    users: s.users,
    system: s.system,
  };
}

export const define = createDefine<DnsApiServices>();
