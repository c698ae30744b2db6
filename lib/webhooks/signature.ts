/**
 * The signature of a delivery (docs/webhooks.md, "Verifying a delivery"):
 * `Palisade-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`
 * with the subscription's secret, as Stripe signs its webhooks: the time is
 * inside the signed text, so a receiver that refuses old times refuses replays.
 * During a rotation's grace one `v1` per secret follows, the new one first,
 * so a receiver holding either secret verifies.
 */
import { createHmac } from "node:crypto";

export const SIGNATURE_HEADER = "Palisade-Signature";

/** The header value for `body` sent at `unixSeconds`, signed with each of `secrets`. */
export function signatureHeader(secrets: string[], body: string, unixSeconds: number): string {
  const macs = secrets.map((secret) =>
    `v1=${createHmac("sha256", secret).update(`${unixSeconds}.${body}`).digest("hex")}`
  );
  return [`t=${unixSeconds}`, ...macs].join(",");
}
