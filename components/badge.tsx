const TONE: Record<string, string> = {
  enabled: "ok",
  ok: "ok",
  up: "ok",
  connected: "ok",
  disabled: "warn",
  warning: "warn",
  warn: "warn",
  down: "warn",
  off: "muted",
  unknown: "muted",
  revoked: "bad",
  error: "bad",
  fail: "bad",
  missing: "bad",
};

/** A status word in a pill; the word carries the meaning, the colour only helps. */
export function Badge({ status, label }: { status: string; label?: string }) {
  return <span class={`badge ${TONE[status] ?? "muted"}`}>{label ?? status}</span>;
}
