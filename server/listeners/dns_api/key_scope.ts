/**
 * Scoped API keys on the DNS-API listener (docs/dns.md, "API keys"). The
 * listener's middleware puts a key's principal into `ctx.state.apiKey`; a
 * route that a key may call holds each request against the key's scope with
 * `requireScope()` (`requireRecordScope()` for a record named by id,
 * `requireBatchScope()` for a batch), the one check, which audits and refuses (403) what is outside. Routes outside
 * `KEY_ROUTES` refuse keys outright: they take an administrator's JWT.
 */
import type { Authenticated } from "../../../lib/auth/auth.ts";
import type { ApiKeyPrincipal } from "../../../lib/dns/api_keys/api_key_service.ts";
import { keyActor } from "../../../lib/dns/api_keys/api_key_service.ts";
import type { KeyAccess, ScopeRequest } from "../../../lib/dns/api_keys/scope.ts";
import { NotFoundError } from "../../../lib/errors.ts";
import { normalizeZoneName, ownerInZone } from "../../../lib/dns/names.ts";
import type { State } from "../../http/define.ts";
import type { DnsApiServices } from "./context.ts";

/** What a route's check needs of its context. */
export interface ScopeContext {
  readonly services: Pick<DnsApiServices, "dnsApiKeys" | "dns">;
  readonly state: State;
}

/**
 * Where keys are accepted: Palisade's zone and record routes and the
 * PowerDNS-compatible API. Each route there calls `requireScope()`.
 */
export const KEY_ROUTES = ["/api/v1/zones", "/api/v1/servers"] as const;

/** Whether a key may call the route of `pattern` at all. */
export function keyRoute(pattern: string): boolean {
  return KEY_ROUTES.some((p) => pattern === p || pattern.startsWith(`${p}/`));
}

/**
 * The signed-in identity a key's request runs as, so that the routes' audit
 * actors work unchanged: `api-key:<name>`, as an operator whatever its
 * access, so that the role check lets a key's request reach its route's
 * `requireScope()`, which decides read or write and audits a refusal.
 */
export function keyIdentity(p: ApiKeyPrincipal): Authenticated {
  return {
    user: {
      id: `api-key:${p.id}`,
      username: keyActor(p),
      email: "",
      role: "operator",
    },
    via: "api_key",
  };
}

/** Refuses (403, audited) a request made with a key outside its scope; a JWT passes. */
export function requireScope(ctx: ScopeContext, req: ScopeRequest): Promise<void> {
  return ctx.services.dnsApiKeys.enforceScope(ctx.state.apiKey, req);
}

/**
 * `requireScope()` for record `id` of `zone`: the zone first (so that a key
 * learns nothing of zones outside its scope), then the record's type and name.
 */
export async function requireRecordScope(
  ctx: ScopeContext,
  access: KeyAccess,
  zone: string,
  id: string,
): Promise<void> {
  if (!ctx.state.apiKey) return;
  await requireScope(ctx, { access: "read", zone });
  let rec;
  try {
    rec = await ctx.services.dns.getRecord(zone, id);
  } catch (err) {
    // No such record: the operation itself answers 404 as it does for a user.
    if (err instanceof NotFoundError) return;
    throw err;
  }
  await requireScope(ctx, { access, zone, type: rec.type, name: rec.domain });
}

/** One batch operation as far as the scope is concerned. */
export type ScopedOperation = { id: string } | { domain: string; type: string };

/** `requireScope()` for each operation of a batch on `zone`, before any is applied. */
export async function requireBatchScope(
  ctx: ScopeContext,
  zone: string,
  ops: readonly ScopedOperation[],
): Promise<void> {
  if (!ctx.state.apiKey) return;
  const z = normalizeZoneName(zone);
  await requireScope(ctx, { access: "read", zone: z });
  for (const op of ops) {
    if ("id" in op) await requireRecordScope(ctx, "write", z, op.id);
    else {
      const name = ownerInZone(op.domain, z);
      await requireScope(ctx, { access: "write", zone: z, type: op.type, name });
    }
  }
}
