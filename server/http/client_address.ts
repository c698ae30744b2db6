/** The client address of a request, the same way on every listener (lib/net/client_address.ts). */
import type { Config } from "../../lib/config/config.ts";
import { clientAddress, trustedProxyMatcher } from "../../lib/net/client_address.ts";
import type { Context } from "./define.ts";

/** A context on a listener that knows its trusted proxies. */
export type ProxyAwareContext = Context<
  unknown,
  unknown,
  { config: Pick<Config, "trustedProxies"> }
>;

/**
 * The TCP peer's address, or the client that a trusted proxy forwarded the
 * request for (`X-Forwarded-For`, read only when the peer is such a proxy).
 */
export function requestClientAddress(ctx: ProxyAwareContext): string {
  const trusted = trustedProxyMatcher(ctx.services.config.trustedProxies);
  return clientAddress(ctx.remoteAddr, ctx.req.headers.get("x-forwarded-for"), trusted);
}
