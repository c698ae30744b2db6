import { computed, type ReadonlySignal, type Signal, signal } from "@preact/signals";
import { useEffect, useMemo } from "preact/hooks";
import { formatAgo, formatBytes, formatTime, isConnected } from "@/components/format.ts";
import { subscribe } from "./_runtime/event_stream.ts";
import { LiveStatus } from "./_runtime/live_status.tsx";

/**
 * One peer as the table needs it. Rows cross to the browser as JSON inside an
 * HTML attribute, a thousand at a time, so they are kept small: the interface
 * is an index into `PeerTableProps.ifaces`, and telemetry nobody has reported
 * (`hs` handshake time, `rx`/`tx` bytes) is left out rather than sent as null.
 */
export interface PeerRow {
  id: string;
  name: string;
  iface: number;
  address: string;
  status: string;
  hs?: string;
  rx?: number;
  tx?: number;
}

export interface PeerTableProps {
  rows: PeerRow[];
  /** The interfaces rows refer to, as [id, name]. */
  ifaces: [string, string][];
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
}

interface Entry {
  row: PeerRow;
  live: Signal<Live>;
  shown: ReadonlySignal<boolean>;
}

function Row(
  { e, now, iface }: { e: Entry; now: Signal<number>; iface: [string, string] | null },
) {
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
      {iface && (
        <td>
          <a href={`/tunnels/${iface[0]}`}>{iface[1]}</a>
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
      {count.value === total
        ? `${total} ${total === 1 ? "peer" : "peers"}`
        : `${count.value} of ${total} peers shown`}
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
      const p = event.payload as {
        id: string;
        latest_handshake: string | null;
        rx_bytes: number;
        tx_bytes: number;
      };
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
                  <Row
                    key={e.row.id}
                    e={e}
                    now={state.now}
                    iface={props.showInterface ? props.ifaces[e.row.iface] ?? null : null}
                  />
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
