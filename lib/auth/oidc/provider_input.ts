/**
 * A provider's settings as the dashboard form sends them, checked and
 * normalized: the id used in URLs, the issuer (https, or http on loopback
 * for testing), the client, the scopes (`openid` always), the claim and its
 * value → role map (one `value=role` per line).
 */
import { UnprocessableError } from "../../errors.ts";
import { isRole, type Role, ROLES } from "../roles.ts";

export interface ProviderInput {
  id: string;
  display_name: string;
  issuer: string;
  client_id: string;
  /** Empty on an edit keeps the stored secret. */
  client_secret: string;
  scopes: string;
  claim: string;
  /** One `value=role` per line. */
  role_map: string;
  enabled: boolean;
  /** Sign out at the provider too (RP-initiated logout); true when absent. */
  logout_at_provider?: boolean;
}

export interface ProviderSettings {
  id: string;
  displayName: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  claim: string;
  roleMap: Record<string, Role>;
  enabled: boolean;
  logoutAtProvider: boolean;
}

export const DEFAULT_SCOPES = "openid email profile";
export const DEFAULT_CLAIM = "groups";

const LOOPBACK = new Set(["127.0.0.1", "[::1]", "localhost"]);

function issuerOf(raw: string): string {
  const v = raw.trim();
  const url = URL.canParse(v) ? new URL(v) : null;
  const ok = url && !url.search && !url.hash && !url.username &&
    (url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK.has(url.hostname)));
  if (!ok) {
    throw new UnprocessableError(
      `The issuer must be an https URL without query or fragment, got "${v}"`,
      "issuer",
    );
  }
  return v;
}

/** `value=role` lines to a map; every role must be one of ROLES. */
export function parseRoleMap(text: string): Record<string, Role> {
  // No prototype: a claim value such as "__proto__" is a plain key here.
  const map: Record<string, Role> = Object.create(null);
  for (const line of text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean)) {
    const at = line.lastIndexOf("=");
    const value = line.slice(0, at).trim();
    const role = line.slice(at + 1).trim().toLowerCase();
    if (at < 1 || !value || !isRole(role)) {
      throw new UnprocessableError(
        `Each line must be "claim value=role" with a role of ${ROLES.join(", ")}, got "${line}"`,
        "role_map",
      );
    }
    map[value] = role;
  }
  if (Object.keys(map).length === 0) {
    throw new UnprocessableError("Map at least one claim value to a role", "role_map");
  }
  return map;
}

export const formatRoleMap = (map: Record<string, Role>) =>
  Object.entries(map).map(([v, r]) => `${v}=${r}`).join("\n");

function text(v: string, field: string, label: string, max: number): string {
  const t = v.trim();
  if (!t || t.length > max) {
    throw new UnprocessableError(`${label} must be 1-${max} characters`, field);
  }
  return t;
}

/** Checks and normalizes `input`; with `keepSecret` (an edit) the client secret may be empty. */
export function providerSettings(input: ProviderInput, keepSecret: boolean): ProviderSettings {
  const id = input.id.trim().toLowerCase();
  if (!/^[a-z0-9][a-z0-9-]{0,31}$/.test(id)) {
    throw new UnprocessableError(
      `The id must be 1-32 lower-case letters, digits or "-", got "${input.id}"`,
      "id",
    );
  }
  const scopes = input.scopes.trim().split(/\s+/).filter(Boolean);
  if (scopes.some((s) => !/^[\x21\x23-\x5b\x5d-\x7e]{1,64}$/.test(s))) {
    throw new UnprocessableError(`Scopes must be names separated by spaces`, "scopes");
  }
  const claim = input.claim.trim() || DEFAULT_CLAIM;
  if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(claim)) {
    throw new UnprocessableError(`The claim must be a claim name, got "${input.claim}"`, "claim");
  }
  const secret = input.client_secret.trim();
  if (!secret && !keepSecret) {
    throw new UnprocessableError("Enter the client secret", "client_secret");
  }
  if (secret.length > 1024) {
    throw new UnprocessableError(
      "The client secret must be at most 1024 characters",
      "client_secret",
    );
  }
  return {
    id,
    displayName: text(input.display_name, "display_name", "The display name", 64),
    issuer: issuerOf(input.issuer),
    clientId: text(input.client_id, "client_id", "The client id", 256),
    clientSecret: secret,
    scopes: ["openid", ...scopes.filter((s) => s !== "openid")].join(" "),
    claim,
    roleMap: parseRoleMap(input.role_map),
    enabled: input.enabled,
    logoutAtProvider: input.logout_at_provider ?? true,
  };
}
