/**
 * The attestation token's format (docs/attestation_sites.md, "Tokens and
 * siteverify"), shared by the browser client, which builds and signs it,
 * and the server, which parses it: "v1." + C + "." + signature hex, where C
 * is base64url(JSON claims) and the signature is Ed25519 by the session's
 * key over "palisade-token-v1." + C. The prefix keeps a token signature
 * from ever being a valid heartbeat signature (those sign a payload that
 * starts with `{"entropyData"`). No Node or Deno API here: the browser
 * bundle imports this file.
 */

export const TOKEN_PREFIX = "v1.";
export const SIGNED_PREFIX = "palisade-token-v1.";
/** Turnstile's maximum response length: a site's form handling may rely on it. */
export const TOKEN_MAX_LENGTH = 2048;
/** Turnstile's limit for action and cdata. */
export const LABEL = /^[A-Za-z0-9_-]{1,32}$/;

/** Environment hints the page reports; client-reported, so only signals, never a decision. */
export interface TokenEnv {
  webdriver?: boolean;
  headless_ua?: boolean;
  plugins?: number;
  languages?: number;
  webgl?: string;
}

export interface TokenClaims {
  v: 1;
  sid: string;
  /** The site key. */
  site: string;
  /** Client time, Unix ms. */
  iat: number;
  /** 16 random bytes, hex. */
  n: string;
  /** The client's accepted heartbeats. */
  chain: number;
  /** location.hostname of the page. */
  hn: string;
  action?: string;
  cdata?: string;
  env?: TokenEnv;
}

function base64url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(s: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) return null;
  try {
    const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(bin, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/** C: the claims' encoded part. */
export function encodeClaims(claims: TokenClaims): string {
  return base64url(new TextEncoder().encode(JSON.stringify(claims)));
}

/** The string the session key signs for claims part `c`. */
export function signedText(c: string): string {
  return SIGNED_PREFIX + c;
}

/** The token string from its parts. */
export function tokenString(c: string, signatureHex: string): string {
  return `${TOKEN_PREFIX}${c}.${signatureHex}`;
}

/** A token split into its parts, or null when it is not of the format. */
export interface ParsedToken {
  c: string;
  signature: string;
  claims: TokenClaims;
}

const HEX64 = /^[0-9a-f]{64}$/;
const HEX32 = /^[0-9a-f]{32}$/;
const SIG = /^[0-9a-f]{128}$/;

function isClaims(v: unknown): v is TokenClaims {
  if (typeof v !== "object" || v === null) return false;
  const c = v as Record<string, unknown>;
  const label = (x: unknown) => x === undefined || (typeof x === "string" && LABEL.test(x));
  return c.v === 1 && typeof c.sid === "string" && HEX64.test(c.sid) &&
    typeof c.site === "string" && c.site.length <= 64 &&
    Number.isSafeInteger(c.iat) && typeof c.n === "string" && HEX32.test(c.n) &&
    Number.isSafeInteger(c.chain) && (c.chain as number) >= 0 &&
    typeof c.hn === "string" && c.hn.length > 0 && c.hn.length <= 253 &&
    label(c.action) && label(c.cdata) &&
    (c.env === undefined || (typeof c.env === "object" && c.env !== null));
}

export function parseToken(token: unknown): ParsedToken | null {
  if (typeof token !== "string" || token.length > TOKEN_MAX_LENGTH) return null;
  if (!token.startsWith(TOKEN_PREFIX)) return null;
  const rest = token.slice(TOKEN_PREFIX.length);
  const dot = rest.indexOf(".");
  if (dot <= 0) return null;
  const c = rest.slice(0, dot);
  const signature = rest.slice(dot + 1);
  if (!SIG.test(signature)) return null;
  const bytes = fromBase64url(c);
  if (!bytes) return null;
  let claims: unknown;
  try {
    claims = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return null;
  }
  return isClaims(claims) ? { c, signature, claims } : null;
}
