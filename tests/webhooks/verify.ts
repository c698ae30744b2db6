/**
 * A receiver's side of verification, as docs/webhooks.md shows it, with
 * node:crypto only (not Palisade's code): the header's `t` within a
 * tolerance, and any of its `v1` signatures matching the secret.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** The header's time and every `v1` value. */
export function parseSignature(header: string): { t: string; v1: string[] } {
  const parts = header.split(",").map((p) => p.split("=", 2));
  return {
    t: parts.find(([k]) => k === "t")?.[1] ?? "",
    v1: parts.filter(([k]) => k === "v1").map(([, v]) => v ?? ""),
  };
}

/** Whether `secret` signed `rawBody` under `header`, at a time within `toleranceS` of `nowS`. */
export function verifies(
  rawBody: string,
  header: string,
  secret: string,
  nowS = Date.now() / 1000,
  toleranceS = 300,
): boolean {
  const { t, v1 } = parseSignature(header);
  if (!Number.isFinite(Number(t)) || Math.abs(nowS - Number(t)) > toleranceS) return false;
  const want = createHmac("sha256", secret).update(`${t}.${rawBody}`).digest();
  return v1.some((hex) => {
    const got = Buffer.from(hex, "hex");
    return got.length === want.length && timingSafeEqual(got, want);
  });
}
