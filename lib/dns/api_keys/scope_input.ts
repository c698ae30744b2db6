/**
 * A scope as an administrator sends it, checked and put in the form the
 * rules of `scope.ts` compare: zones and name patterns normalized (lower
 * case, no final dot), types upper case and among the types records can
 * have. Each refusal names its field as the API does (`scope.types`).
 */
import { ValidationError } from "../../errors.ts";
import { normalizeName, normalizeZoneName } from "../names.ts";
import { RECORD_TYPES } from "../rdata.ts";
import type { KeyAccess, KeyScope } from "./scope.ts";

/** The scope of a creation request, before checking. */
export interface ScopeInput {
  zones: string[] | "*";
  types: string[] | "*";
  names: string[] | "*";
  access: KeyAccess;
}

const KNOWN = new Set<string>(RECORD_TYPES);

function list<T>(v: T[] | "*", field: string, each: (s: T, f: string) => string) {
  if (v === "*") return "*" as const;
  if (v.length === 0) {
    throw new ValidationError(`Give at least one entry or "*"`, field);
  }
  return [...new Set(v.map((s, i) => each(s, `${field}[${i}]`)))];
}

function type(t: string, field: string): string {
  const up = t.trim().toUpperCase();
  if (!KNOWN.has(up)) throw new ValidationError(`Record type "${t}" is not known`, field);
  return up;
}

/**
 * A name pattern checked as a domain name whose `*` labels stand for any
 * label (so `_acme-challenge.*` passes although `*` is no top-level domain),
 * then given back normalized with its `*` labels.
 */
function namePattern(p: string, field: string): string {
  const labels = p.trim().replace(/\.$/, "").split(".");
  const probe = labels.map((l) => (l === "*" ? "a" : l)).join(".");
  const checked = normalizeName(probe, field).split(".");
  return checked.map((l, i) => (labels[i] === "*" ? "*" : l)).join(".");
}

/** A checked, normalized scope; throws ValidationError naming the field. */
export function checkScope(input: ScopeInput): KeyScope {
  return {
    zones: list(input.zones, "scope.zones", (z, f) => normalizeZoneName(z, f)),
    types: list(input.types, "scope.types", type),
    names: list(input.names, "scope.names", namePattern),
    access: input.access,
  };
}

/** A short text of a scope for listings and audit: `TXT _acme-challenge.* in example.org, write`. */
export function scopeSummary(s: KeyScope): string {
  const part = (v: string[] | "*", all: string) => v === "*" ? all : v.join(", ");
  return `${part(s.types, "all types")} at ${part(s.names, "all names")} in ${
    part(s.zones, "all zones")
  }, ${s.access}`;
}
