import { batch, computed, type Signal, signal } from "@preact/signals";
import { useEffect, useMemo } from "preact/hooks";
import { subscribe } from "../_runtime/event_stream.ts";
import { coalesced, matches, perFrame } from "../_runtime/schedule.ts";
import { freshProps } from "./refetch.ts";
import type { Entry, Live, PeerRow, PeerTableProps, Usage } from "./types.ts";

/** The `PeerHandshake` event payload, as the table reads it (a type: payloads are records). */
type Handshake = {
  id: string;
  latest_handshake: string | null;
  rx_bytes: number;
  tx_bytes: number;
};

/** The `PeerUsage` event payload, as the table reads it. */
type UsageEvent = {
  peers: { id: string; used_bytes: number; quota_bytes: number | null; days_left: number | null }[];
};

const usageOf = (row: PeerRow): Usage | null =>
  row.lim ? { used: row.lim[0], quota: row.lim[1], days: row.lim[2] } : null;

function keyOf(row: PeerRow, ifaces: [string, string][]): string {
  return `${row.name}\n${row.address}\n${ifaces[row.iface]?.join("\n")}\n${row.status}`;
}

function entryOf(
  row: PeerRow,
  ifaces: [string, string][],
  filter: Signal<string>,
  live?: Signal<Live>,
  usage?: Signal<Usage | null>,
): Entry {
  const iface = ifaces[row.iface] ?? null;
  const hay = `${row.name}\n${row.address}\n${iface?.[1] ?? ""}\n${row.status}`.toLowerCase();
  return {
    row,
    iface,
    key: keyOf(row, ifaces),
    live: live ?? signal<Live>({ hs: row.hs ?? null, rx: row.rx ?? null, tx: row.tx ?? null }),
    usage: usage ?? signal(usageOf(row)),
    shown: computed(() => filter.value === "" || hay.includes(filter.value)),
  };
}

/** Takes the render's telemetry when it is newer than what the row's signal holds. */
function adopt(e: Entry, row: PeerRow): void {
  const u = usageOf(row);
  const cu = e.usage.value;
  if (u?.used !== cu?.used || u?.quota !== cu?.quota || u?.days !== cu?.days) e.usage.value = u;
  const cur = e.live.value;
  if (!row.hs || (cur.hs && cur.hs > row.hs)) return;
  if (cur.hs === row.hs && cur.rx === (row.rx ?? null) && cur.tx === (row.tx ?? null)) return;
  e.live.value = { hs: row.hs, rx: row.rx ?? null, tx: row.tx ?? null };
}

/**
 * Patches the rows' signals from `PeerHandshake` and `PeerUsage` by peer id,
 * the events of one animation frame in one batch; returns the unsubscribes.
 */
function patchRows(byId: Map<string, Entry>): (() => void)[] {
  const pending = new Map<string, Handshake>();
  const pendingUsage = new Map<string, UsageEvent["peers"][number]>();
  const flush = perFrame(() =>
    batch(() => {
      for (const p of pending.values()) {
        const e = byId.get(p.id);
        if (e) e.live.value = { hs: p.latest_handshake, rx: p.rx_bytes, tx: p.tx_bytes };
      }
      for (const p of pendingUsage.values()) {
        const e = byId.get(p.id);
        if (e) e.usage.value = { used: p.used_bytes, quota: p.quota_bytes, days: p.days_left };
      }
      pending.clear();
      pendingUsage.clear();
    })
  );
  return [
    subscribe("PeerHandshake", (event) => {
      const p = event.payload as Handshake;
      pending.set(p.id, p);
      flush();
    }),
    subscribe("PeerUsage", (event) => {
      for (const p of (event.payload as UsageEvent).peers) pendingUsage.set(p.id, p);
      flush();
    }),
  ];
}

/**
 * The table's signals, made once: the list of entries (each with signals
 * patched from `PeerHandshake` and `PeerUsage` events by peer id), a clock for the relative
 * times, the caption, and the search text, which each row's own `shown`
 * follows. Handshakes are applied once per animation frame, in one batch.
 */
export function usePeerTableState(props: PeerTableProps) {
  const state = useMemo(() => {
    const filter = signal("");
    const now = signal(props.now);
    const caption = signal(props.caption);
    const stale = signal(false);
    const entries = signal(props.rows.map((r) => entryOf(r, props.ifaces, filter)));
    const byId = new Map(entries.value.map((e) => [e.row.id, e]));
    const shownCount = computed(() => entries.value.filter((e) => e.shown.value).length);
    /** Rows of a fresh render replace the list; a row unchanged keeps its entry and signals. */
    const reconcile = (fresh: PeerTableProps) => {
      const next = fresh.rows.map((row) => {
        const old = byId.get(row.id);
        const e = old && old.key === keyOf(row, fresh.ifaces)
          ? old
          : entryOf(row, fresh.ifaces, filter, old?.live, old?.usage);
        adopt(e, row);
        return e;
      });
      byId.clear();
      for (const e of next) byId.set(e.row.id, e);
      batch(() => {
        entries.value = next;
        caption.value = fresh.caption;
      });
    };
    return { filter, now, caption, stale, entries, byId, shownCount, reconcile };
  }, []);

  useEffect(() => {
    const { now, byId, filter } = state;
    now.value = Date.now();
    const tick = setInterval(() => (now.value = Date.now()), 15_000);
    const offs = patchRows(byId);
    const refresh = coalesced(async () => {
      const fresh = await freshProps();
      if (fresh === "unchanged") return;
      state.stale.value = fresh === null;
      if (fresh) state.reconcile(fresh);
    });
    for (const t of props.refreshOn ?? []) {
      offs.push(subscribe(t.type, (e) => {
        if (matches(e.payload, t.where)) refresh();
      }));
    }
    const input = props.searchInput
      ? document.getElementById(props.searchInput) as HTMLInputElement | null
      : null;
    const onInput = () => (filter.value = (input?.value ?? "").trim().toLowerCase());
    input?.addEventListener("input", onInput);
    return () => {
      clearInterval(tick);
      offs.forEach((off) => off());
      input?.removeEventListener("input", onInput);
    };
  }, []);

  return state;
}
