import { streamStatus } from "./event_stream.ts";

/** The "Live / Connecting / Offline" pill of an island fed by the event stream. */
export function LiveStatus() {
  const s = streamStatus.value;
  return (
    <span class={`live live-${s}`} role="status" aria-live="polite">
      {s === "live" ? "Live" : s === "connecting" ? "Connecting…" : "Offline, retrying"}
    </span>
  );
}
