/**
 * TOTP (RFC 6238 over RFC 4226): HMAC-SHA-1, six digits, 30-second steps,
 * the parameters every authenticator app uses. Written over WebCrypto
 * rather than an npm library: it is thirty lines, the spec is fixed, and
 * the secret then never passes through third-party code.
 */

export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_MS = 30_000;
/** Steps either side of now that are still taken: clocks drift and people type slowly. */
export const TOTP_WINDOW = 1;

const B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32 without padding, as otpauth:// URIs carry secrets. */
export function base32Encode(bytes: Uint8Array): string {
  let out = "";
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += B32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += B32[(value << (5 - bits)) & 31];
  return out;
}

/** Decodes base32 (case, spaces and padding ignored); throws on another character. */
export function base32Decode(text: string): Uint8Array<ArrayBuffer> {
  const clean = text.toUpperCase().replace(/[\s=]/g, "");
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of clean) {
    const i = B32.indexOf(ch);
    if (i < 0) throw new Error(`Not a base32 character: "${ch}"`);
    value = ((value << 5) | i) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Uint8Array.from(out);
}

/** The time step of a Unix millisecond time. */
export const stepAt = (ms: number): number => Math.floor(ms / TOTP_PERIOD_MS);

/** The code of `secret` for time step `step` (RFC 4226 dynamic truncation). */
export async function totpCode(secret: Uint8Array<ArrayBuffer>, step: number): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    secret,
    { name: "HMAC", hash: "SHA-1" },
    false,
    ["sign"],
  );
  const counter = new DataView(new ArrayBuffer(8));
  counter.setUint32(0, Math.floor(step / 2 ** 32));
  counter.setUint32(4, step >>> 0);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, counter.buffer));
  const offset = mac[mac.length - 1] & 0x0f;
  const bin = ((mac[offset] & 0x7f) << 24) | (mac[offset + 1] << 16) | (mac[offset + 2] << 8) |
    mac[offset + 3];
  return String(bin % 10 ** TOTP_DIGITS).padStart(TOTP_DIGITS, "0");
}

/**
 * The time step within ±TOTP_WINDOW of `now` whose code is `code`, or null.
 * Every step of the window is computed, so a match costs the same time as a miss.
 */
export async function matchStep(
  secret: Uint8Array<ArrayBuffer>,
  code: string,
  now: number,
): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const here = stepAt(now);
  let found: number | null = null;
  for (let d = -TOTP_WINDOW; d <= TOTP_WINDOW; d++) {
    if ((await totpCode(secret, here + d)) === code && found === null) found = here + d;
  }
  return found;
}

/** The otpauth:// URI authenticator apps read from the QR code. */
export function otpauthUri(issuer: string, account: string, secret: Uint8Array): string {
  const label = encodeURIComponent(`${issuer}:${account}`);
  const params = new URLSearchParams({
    secret: base32Encode(secret),
    issuer,
    algorithm: "SHA1",
    digits: String(TOTP_DIGITS),
    period: String(TOTP_PERIOD_MS / 1000),
  });
  return `otpauth://totp/${label}?${params}`;
}
