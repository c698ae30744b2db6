import type { Signal } from "@preact/signals";
import { formatAgo, formatBytes, formatTime, isConnected } from "@/components/format.ts";
import { daysLeftLabel, UsageMeter } from "@/components/peers/usage_meter.tsx";
import type { Entry } from "./types.ts";

const BADGE: Record<string, string> = { enabled: "ok", disabled: "warn", revoked: "bad" };

/** One peer; it reads its own signals, so a handshake or usage event re-renders this row only. */
export function Row(
  { e, now, showInterface }: { e: Entry; now: Signal<number>; showInterface: boolean },
) {
  const iface = showInterface ? e.iface : null;
  const t = e.live.value;
  const u = e.usage.value;
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
      <td data-cell="usage">
        {u
          ? (
            <>
              <UsageMeter used={u.used} quota={u.quota} />
              {u.days !== null && <>, {daysLeftLabel(u.days)}</>}
            </>
          )
          : <span class="muted">no limits</span>}
      </td>
    </tr>
  );
}
