/**
 * The PowerDNS API's configured key (PALISADE_PDNS_API_KEY), compared in
 * constant time: both sides are hashed first, so neither the comparison's
 * time nor an early length mismatch says anything about the key.
 */
import { timingSafeEqual } from "node:crypto";

const encoder = new TextEncoder();

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

/** Whether `sent` is the configured key; always false when none is configured. */
export async function pdnsKeyMatches(
  configured: string | null,
  sent: string | null,
): Promise<boolean> {
  if (configured === null || configured === "" || sent === null) return false;
  const [a, b] = await Promise.all([digest(configured), digest(sent)]);
  return timingSafeEqual(a, b);
}
