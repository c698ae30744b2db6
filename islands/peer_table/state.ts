import { computed, signal } from "@preact/signals";
import { useEffect, useMemo } from "preact/hooks";
import { subscribe } from "../_runtime/event_stream.ts";
import type { Entry, Live, PeerTableProps } from "./types.ts";

/** The `PeerHandshake` event payload, as the table reads it (a type: payloads are records). */
type Handshake = {
  id: string;
  latest_handshake: string | null;
  rx_bytes: number;
  tx_bytes: number;
};

/**
 * The table's signals, made once: a signal per row, patched from
 * `PeerHandshake` events by peer id, a clock for the relative times, and the
 * search text, which each row's own `shown` follows.
 */
export function usePeerTableState(props: PeerTableProps) {
  const state = useMemo(() => {
    const filter = signal("");
    const now = signal(props.now);
    const entries: Entry[] = props.rows.map((row) => {
      const iface = props.ifaces[row.iface]?.[1] ?? "";
      const hay = `${row.name}\n${row.address}\n${iface}\n${row.status}`.toLowerCase();
      return {
        row,
        live: signal<Live>({ hs: row.hs ?? null, rx: row.rx ?? null, tx: row.tx ?? null }),
        shown: computed(() => filter.value === "" || hay.includes(filter.value)),
      };
    });
    const byId = new Map(entries.map((e) => [e.row.id, e]));
    const shownCount = computed(() => entries.filter((e) => e.shown.value).length);
    return { filter, now, entries, byId, shownCount };
  }, []);

  useEffect(() => {
    const { now, byId, filter } = state;
    now.value = Date.now();
    const tick = setInterval(() => (now.value = Date.now()), 15_000);
    const off = subscribe("PeerHandshake", (event) => {
      const p = event.payload as Handshake;
      const e = byId.get(p.id);
      if (!e) return;
      e.live.value = { hs: p.latest_handshake, rx: p.rx_bytes, tx: p.tx_bytes };
    });
    const input = props.searchInput
      ? document.getElementById(props.searchInput) as HTMLInputElement | null
      : null;
    const onInput = () => (filter.value = (input?.value ?? "").trim().toLowerCase());
    input?.addEventListener("input", onInput);
    return () => {
      clearInterval(tick);
      off();
      input?.removeEventListener("input", onInput);
    };
  }, []);

  return state;
}
