import { computed, type ReadonlySignal, type Signal, signal } from "@preact/signals";
import { useEffect, useMemo } from "preact/hooks";
import { formatAgo, formatBytes, formatTime, isConnected } from "@/components/format.ts";
import { subscribe } from "./_runtime/event_stream.ts";
import { LiveStatus } from "./_runtime/live_status.tsx";

/** One peer as the table needs it; `hs`, `rx`, `tx` are null when nothing is known. */
export interface PeerRow {
  id: string;
  name: string;
  iface: string;
  iface_id: string;
  address: string;
  status: string;
  hs: string | null;
  rx: number | null;
  tx: number | null;
  endpoint: string | null;
}

export interface PeerTableProps {
  rows: PeerRow[];
  /** Server time of the render, so relative times hydrate to the same text. */
  now: number;
  caption: string;
  showInterface: boolean;
  /** Id of a server-rendered search field; typing in it filters the rows at once. */
  searchInput?: string;
  /** Show a footer with the summed transfer. */
  totals?: boolean;
  /** Shown instead of the table when there are no rows. */
  empty: string;
}

interface Live {
  hs: string | null;
  rx: number | null;
  tx: number | null;
  endpoint: string | null;
}

interface Entry {
  row: PeerRow;
  live: Signal<Live>;
  shown: ReadonlySignal<boolean>;
}

function Row({ e, now, showInterface }: { e: Entry; now: Signal<number>; showInterface: boolean }) {
  // Each row reads its own signals: a handshake event re-renders this row only.
  const t = e.live.value;
  const r = e.row;
  const nowMs = t.hs ? now.value : 0;
  const connected = isConnected(t.hs, nowMs);
  return (
    <tr hidden={!e.shown.value} data-peer-id={r.id}>
      <th scope="row">
        <a href={`/peers/${r.id}`}>{r.name}</a>
      </th>
      {showInterface && (
        <td>
          <a href={`/tunnels/${r.iface_id}`}>{r.iface}</a>
        </td>
      )}
      <td>
        <code>{r.address}</code>
      </td>
      <td>
        <span class={`badge ${BADGE[r.status] ?? "muted"}`}>{r.status}</span>
      </td>
      <td data-cell="handshake">
        {t.hs
          ? (
            <time datetime={t.hs} title={formatTime(t.hs)}>
              {connected && <span class="dot" aria-hidden="true" />}
              {formatAgo(t.hs, nowMs)}
              {connected && <span class="visually-hidden">, connected</span>}
            </time>
          )
          : <span class="muted">never</span>}
      </td>
      <td class="num" data-cell="rx">{formatBytes(t.rx)}</td>
      <td class="num" data-cell="tx">{formatBytes(t.tx)}</td>
    </tr>
  );
}

const BADGE: Record<string, string> = { enabled: "ok", disabled: "warn", revoked: "bad" };

function Totals({ entries, cols }: { entries: Entry[]; cols: number }) {
  const sum = useMemo(
    () =>
      computed(() => {
        let rx = 0, tx = 0, known = false;
        for (const e of entries) {
          const t = e.live.value;
          if (t.rx !== null || t.tx !== null) known = true;
          rx += t.rx ?? 0;
          tx += t.tx ?? 0;
        }
        return known ? { rx, tx } : null;
      }),
    [entries],
  );
  const s = sum.value;
  return (
    <tfoot>
      <tr>
        <th scope="row" colSpan={cols - 2}>Total transfer</th>
        <td class="num" data-cell="total-rx">{formatBytes(s?.rx)}</td>
        <td class="num" data-cell="total-tx">{formatBytes(s?.tx)}</td>
      </tr>
    </tfoot>
  );
}

function ShownCount({ count, total }: { count: ReadonlySignal<number>; total: number }) {
  return (
    <p class="visually-hidden" role="status" aria-live="polite">
      {count.value === total ? `${total} peers` : `${count.value} of ${total} peers shown`}
    </p>
  );
}

/**
 * The peers table. The server renders every row; in the browser each row
 * holds its own signal, patched from `PeerHandshake` events by peer id, so an
 * event re-renders one row however many there are, and the search field
 * hides rows whose visibility changed without touching the others.
 */
export default function PeerTable(props: PeerTableProps) {
  const state = useMemo(() => {
    const filter = signal("");
    const now = signal(props.now);
    const entries: Entry[] = props.rows.map((row) => {
      const hay = `${row.name}\n${row.address}\n${row.iface}\n${row.status}`.toLowerCase();
      return {
        row,
        live: signal<Live>({ hs: row.hs, rx: row.rx, tx: row.tx, endpoint: row.endpoint }),
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
      const p = event.payload as {
        id: string;
        latest_handshake: string | null;
        endpoint: string | null;
        rx_bytes: number;
        tx_bytes: number;
      };
      const e = byId.get(p.id);
      if (!e) return;
      e.live.value = {
        hs: p.latest_handshake,
        rx: p.rx_bytes,
        tx: p.tx_bytes,
        endpoint: p.endpoint,
      };
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

  const cols = props.showInterface ? 7 : 6;
  return (
    <div class="stack">
      <div class="row spread">
        <p class="muted">{props.caption}</p>
        <LiveStatus />
      </div>
      {props.rows.length === 0 ? <p class="empty">{props.empty}</p> : (
        <>
          <ShownCount count={state.shownCount} total={props.rows.length} />
          <div class="table-wrap">
            <table class="peers">
              <caption class="visually-hidden">{props.caption}</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  {props.showInterface && <th scope="col">Interface</th>}
                  <th scope="col">Address</th>
                  <th scope="col">Status</th>
                  <th scope="col">Latest handshake</th>
                  <th scope="col" class="num">Received</th>
                  <th scope="col" class="num">Sent</th>
                </tr>
              </thead>
              <tbody>
                {state.entries.map((e) => (
                  <Row key={e.row.id} e={e} now={state.now} showInterface={props.showInterface} />
                ))}
              </tbody>
              {props.totals && <Totals entries={state.entries} cols={cols} />}
            </table>
          </div>
          <NoMatch count={state.shownCount} />
        </>
      )}
    </div>
  );
}

function NoMatch({ count }: { count: ReadonlySignal<number> }) {
  return count.value === 0 ? <p class="empty">No peer matches this search.</p> : null;
}
