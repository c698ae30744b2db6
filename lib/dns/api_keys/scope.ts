/**
 * What a scoped DNS API key may do (issue 28): which zones, which record
 * types, which owner names, and whether it may write. Pure rules, shared by
 * Palisade's DNS API and the PowerDNS-compatible one; the key's storage and
 * verification live beside this file.
 *
 * Names and zones are compared in lower case without a trailing dot. A name
 * pattern is a domain name in which a `*` label stands for one or more
 * whole labels: `_acme-challenge.*` matches `_acme-challenge.example.org`
 * and `_acme-challenge.www.example.org`, `*.example.org` matches
 * `a.example.org` and `a.b.example.org` but not `example.org`.
 */

export type KeyAccess = "read" | "write";

export interface KeyScope {
  zones: string[] | "*";
  /** Record types in upper case. */
  types: string[] | "*";
  /** Name patterns (see above). */
  names: string[] | "*";
  access: KeyAccess;
}

/** The ACME-only preset: TXT records under `_acme-challenge.` of the given zones, read-write. */
export function acmeScope(zones: string[] | "*"): KeyScope {
  return { zones, types: ["TXT"], names: ["_acme-challenge.*"], access: "write" };
}

/** What a request touches. Absent `zone`: the whole server (list or create zones). */
export interface ScopeRequest {
  access: KeyAccess;
  zone?: string;
  /** Absent on a change to the zone itself (its SOA settings, DNSSEC, deletion). */
  type?: string;
  name?: string;
  /**
   * The request reads or writes every record of the zone at once (a record
   * listing, an export, an import): it needs every type and name.
   */
  allRecords?: boolean;
}

const norm = (s: string) => s.toLowerCase().replace(/\.$/, "");

/** Whether `zone` is one the key may see at all. */
export function zoneInScope(scope: KeyScope, zone: string): boolean {
  return scope.zones === "*" || scope.zones.some((z) => norm(z) === norm(zone));
}

/** Whether `name` matches one of the key's patterns. */
export function nameInScope(scope: KeyScope, name: string): boolean {
  return scope.names === "*" || scope.names.some((p) => namePatternMatches(p, name));
}

/** Whether records of `type` are the key's. */
export function typeInScope(scope: KeyScope, type: string): boolean {
  return scope.types === "*" || scope.types.some((t) => t.toUpperCase() === type.toUpperCase());
}

/**
 * Whether the key may do `req`. A server-wide request needs every zone; a
 * write to a zone itself (no type), or a request on all its records at once,
 * needs every type and name; a record
 * request needs its zone, type and name in scope. Reads need only `read`.
 */
export function scopeAllows(scope: KeyScope, req: ScopeRequest): boolean {
  if (req.access === "write" && scope.access !== "write") return false;
  if (req.zone === undefined) return scope.zones === "*";
  if (!zoneInScope(scope, req.zone)) return false;
  if (req.type === undefined) {
    const everyRecord = scope.types === "*" && scope.names === "*";
    return (req.access === "read" && !req.allRecords) || everyRecord;
  }
  return typeInScope(scope, req.type) && (req.name === undefined || nameInScope(scope, req.name));
}

/** `pattern` against `name`, label by label; a `*` label takes one or more labels. */
export function namePatternMatches(pattern: string, name: string): boolean {
  const p = norm(pattern).split(".");
  const n = norm(name).split(".");
  const match = (i: number, j: number): boolean => {
    if (i === p.length) return j === n.length;
    if (p[i] === "*") {
      for (let k = j + 1; k <= n.length; k++) if (match(i + 1, k)) return true;
      return false;
    }
    return j < n.length && p[i] === n[j] && match(i + 1, j + 1);
  };
  return match(0, 0);
}
