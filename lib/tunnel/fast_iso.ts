/**
 * ISO 8601 UTC strings for many timestamps at once. `toISOString()` costs
 * about half a microsecond; listing ten thousand peers needs twenty thousand
 * of them, so the date part is computed once per day and the time of day by
 * arithmetic. Same output as `new Date(ms).toISOString()` for 1970–9999.
 */

let cachedDay = NaN;
let cachedPrefix = "";

function pad(n: number, width: number): string {
  const s = String(n);
  return s.length >= width ? s : "0".repeat(width - s.length) + s;
}

/** `new Date(ms).toISOString()`, faster in loops. */
export function fastIso(ms: number): string {
  const day = Math.floor(ms / 86_400_000);
  if (day !== cachedDay) {
    cachedDay = day;
    cachedPrefix = new Date(day * 86_400_000).toISOString().slice(0, 11);
  }
  let r = ms - day * 86_400_000;
  const h = Math.floor(r / 3_600_000);
  r -= h * 3_600_000;
  const m = Math.floor(r / 60_000);
  r -= m * 60_000;
  const s = Math.floor(r / 1000);
  return `${cachedPrefix}${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)}.${pad(r - s * 1000, 3)}Z`;
}
