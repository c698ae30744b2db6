/**
 * Keeps secrets out of console output. WireGuard private and preshared keys
 * are 32 bytes in base64 (44 characters, the last one `=`), the same shape
 * as public keys, so masking works by position where the format is known
 * (`wg show <if> dump`) and, everywhere else, masks every key-shaped value
 * that is not in a place that holds a public key. A public key masked by
 * mistake costs a look at another page; a private key shown costs the tunnel.
 */

/** What a masked secret reads as. */
export const MASK = "(hidden)";

/**
 * Base64 of exactly 32 bytes: 42 characters, one whose low two bits are
 * zero, then `=`; not inside a longer base64 run.
 */
const KEY_SHAPED = /(?<![A-Za-z0-9+/=])[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=(?![A-Za-z0-9+/=])/g;

/** Property names whose values are public keys (never secrets) in internal output. */
const PUBLIC_KEY_PROPERTIES = new Set(["public_key"]);

/** Masks every key-shaped value of `text` that is not one of `allowed`. */
export function maskKeys(text: string, allowed: ReadonlySet<string> = new Set()): string {
  return text.replace(KEY_SHAPED, (k) => allowed.has(k) ? k : MASK);
}

/**
 * `wg show <if> dump`: the interface line is private key, public key, listen
 * port, fwmark; each peer line is public key, preshared key, endpoint,
 * allowed IPs, handshake, rx, tx, keepalive. Private and preshared keys
 * become MASK; public keys stay; then any other key-shaped value is masked.
 */
export function maskWgDump(text: string): string {
  const publicKeys = new Set<string>();
  const lines = text.split("\n").map((line, i) => {
    const f = line.split("\t");
    if (i === 0 && f.length === 4) {
      f[0] = MASK;
      publicKeys.add(f[1]);
    } else if (f.length === 8) {
      publicKeys.add(f[0]);
      if (f[1] !== "(none)") f[1] = MASK;
    }
    return f.join("\t");
  });
  return maskKeys(lines.join("\n"), publicKeys);
}

/**
 * Masks key-shaped strings anywhere in a JSON value, except the values of
 * `public_key` properties.
 */
export function maskValue(value: unknown): unknown {
  if (typeof value === "string") return maskKeys(value);
  if (Array.isArray(value)) return value.map(maskValue);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = PUBLIC_KEY_PROPERTIES.has(k) && typeof v === "string" ? v : maskValue(v);
    }
    return out;
  }
  return value;
}
