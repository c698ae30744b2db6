/**
 * WireGuard keys: X25519 pairs from WebCrypto and random preshared keys, all
 * in the standard base64 that `wg` reads and prints.
 */

export interface KeyPair {
  privateKey: string;
  publicKey: string;
}

/** Standard base64 of `bytes` (what `wg genkey` prints). */
export function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

function base64UrlToBase64(s: string): string {
  const b = s.replaceAll("-", "+").replaceAll("_", "/");
  return b + "=".repeat((4 - (b.length % 4)) % 4);
}

/** A fresh X25519 key pair; the private key is the raw 32-byte scalar wg expects. */
export async function keys(): Promise<KeyPair> {
  const pair = await crypto.subtle.generateKey({ name: "X25519" }, true, [
    "deriveBits",
  ]) as CryptoKeyPair;
  const pub = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
  // JWK "d" is the raw private scalar (RFC 8037), unlike PKCS#8 which wraps it.
  const jwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
  return { privateKey: base64UrlToBase64(jwk.d!), publicKey: toBase64(pub) };
}

/** A random 32-byte preshared key. */
export function presharedKey(): string {
  return toBase64(crypto.getRandomValues(new Uint8Array(32)));
}

/** The base64 of exactly 32 bytes, as every WireGuard key is. */
export const WIREGUARD_KEY = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/;

/** True when `s` is the base64 of exactly 32 bytes, as every WireGuard key is. */
export function isWireGuardKey(s: string): boolean {
  return WIREGUARD_KEY.test(s);
}
