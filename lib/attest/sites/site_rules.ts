/**
 * What a site may be: its name, its origins (canonical "scheme://host[:port]",
 * https, or http for localhost only), min_chain and token_ttl_s. Each check
 * throws ValidationError naming the field, the value quoted.
 */
import { ValidationError } from "../../errors.ts";

export const SITE_NAME = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/;
export const MIN_CHAIN_MIN = 1;
export const MIN_CHAIN_MAX = 1000;
export const MIN_CHAIN_DEFAULT = 3;
export const TOKEN_TTL_MIN = 10;
export const TOKEN_TTL_MAX = 3600;
export const TOKEN_TTL_DEFAULT = 300;
export const ORIGINS_MAX = 32;

const LOCALHOST = new Set(["localhost", "127.0.0.1", "[::1]"]);

export function checkSiteName(name: unknown, what: string): string {
  if (typeof name !== "string" || !SITE_NAME.test(name)) {
    throw new ValidationError(
      `${what}: name ${
        JSON.stringify(name)
      } must be 1-64 letters, digits, spaces, dots, dashes or underscores, starting with a letter or digit`,
      "name",
    );
  }
  return name;
}

/**
 * The origin as a browser sends it in the Origin header, or a ValidationError
 * with the canonical form when the input is a URL that only differs from it.
 */
export function checkOrigin(origin: unknown, field: string, what: string): string {
  const bad = (why: string) =>
    new ValidationError(`${what}: ${field} ${JSON.stringify(origin)} ${why}`, field);
  if (typeof origin !== "string") throw bad("is not a string");
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw bad('is not an origin such as "https://shop.example"');
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && LOCALHOST.has(url.hostname))) {
    throw bad("must use https (http only for localhost)");
  }
  if (url.username || url.password) throw bad("must not hold credentials");
  const canonical = url.origin;
  if (origin !== canonical) {
    throw bad(`is not canonical: write "${canonical}" (no path, query, default port or capitals)`);
  }
  return canonical;
}

export function checkOrigins(origins: unknown, what: string): string[] {
  if (!Array.isArray(origins) || origins.length === 0 || origins.length > ORIGINS_MAX) {
    throw new ValidationError(
      `${what}: origins must be a list of 1-${ORIGINS_MAX} origins`,
      "origins",
    );
  }
  // Listed twice is harmless: kept once, in the order given.
  return [...new Set(origins.map((o, i) => checkOrigin(o, `origins[${i}]`, what)))];
}

export function checkIntegerIn(
  value: unknown,
  field: string,
  min: number,
  max: number,
  what: string,
): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new ValidationError(
      `${what}: ${field} ${JSON.stringify(value)} is not an integer in ${min}-${max}`,
      field,
    );
  }
  return value;
}
