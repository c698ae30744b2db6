/**
 * The one scope check of the PowerDNS-compatible API: every route asks it
 * before it reads or changes anything, with what the request touches
 * (docs/dns.md, "PowerDNS-compatible API"). The key's scope is whatever the
 * API's middleware put into `ctx.state.pdnsScope`: the configured
 * all-powerful key (PALISADE_PDNS_API_KEY) gives `FULL_SCOPE`; a scoped key
 * gives its own.
 */
import { ForbiddenError, UnauthorizedError } from "../../errors.ts";
import { type KeyScope, scopeAllows, type ScopeRequest } from "../api_keys/scope.ts";

/** What PowerDNS's `api-key` may do: everything. */
export const FULL_SCOPE: KeyScope = Object.freeze({
  zones: "*",
  types: "*",
  names: "*",
  access: "write",
}) as KeyScope;

/**
 * The scope when it covers `req`; ForbiddenError (403) when not. `"listing"`
 * is a read of the server itself (its description, the zone list), open to
 * every key: the list is filtered by `zoneInScope` afterwards.
 */
export function requirePdnsScope(
  scope: KeyScope | undefined,
  req: ScopeRequest | "listing",
): KeyScope {
  // The middleware sets the scope before any route runs; without one nothing is allowed.
  if (!scope) throw new UnauthorizedError("Unauthorized");
  if (req === "listing") return scope;
  if (scopeAllows(scope, req)) return scope;
  const what = req.zone === undefined
    ? "the server"
    : req.type === undefined
    ? `zone "${req.zone}"`
    : `${req.type} records at "${req.name ?? req.zone}" in zone "${req.zone}"`;
  throw new ScopeRefusal(`${req.access} ${what}`);
}

/** A request outside the key's scope (403); `what` says what was refused, for the audit. */
export class ScopeRefusal extends ForbiddenError {
  constructor(readonly what: string) {
    super(`This API key may not ${what}`, { code: "out_of_scope" });
  }
}
