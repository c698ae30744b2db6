/**
 * Formatting shared by pages (server) and islands (browser), so a value
 * rendered on the server and patched live reads the same.
 */

const UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];

/** 1536 → "1.5 KiB". */
export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return "—";
  let v = n;
  let u = 0;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  return `${u === 0 ? v : v < 10 ? v.toFixed(1) : Math.round(v)} ${UNITS[u]}`;
}

/** How long ago `iso` was, relative to `nowMs`: "just now", "42 s ago", "3 min ago", "2 h ago", "5 d ago". */
export function formatAgo(iso: string | null | undefined, nowMs: number): string {
  if (!iso) return "never";
  const s = Math.max(0, Math.round((nowMs - Date.parse(iso)) / 1000));
  if (s < 5) return "just now";
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86400)} d ago`;
}

/** "2026-01-01T10:00:00.000Z" → "2026-01-01 10:00:00 UTC". */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  return `${iso.replace("T", " ").slice(0, 19)} UTC`;
}

/** 1234567 → "1,234,567". */
export function formatCount(n: number): string {
  return Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** A rate per second with sensible precision. */
export function formatRate(perSecond: number): string {
  if (perSecond === 0) return "0/s";
  if (perSecond < 10) return `${perSecond.toFixed(2)}/s`;
  return `${formatCount(perSecond)}/s`;
}

/** WireGuard's REJECT_AFTER_TIME: a handshake newer than this means connected. */
export const CONNECTED_SECONDS = 180;

/** True when the handshake is recent enough for the peer to count as connected. */
export function isConnected(iso: string | null | undefined, nowMs: number): boolean {
  return !!iso && nowMs - Date.parse(iso) < CONNECTED_SECONDS * 1000;
}
