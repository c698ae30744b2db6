import { LiveStatus } from "./_runtime/live_status.tsx";
import { NoMatch, ShownCount, Totals } from "./peer_table/counts.tsx";
import { Row } from "./peer_table/row.tsx";
import { usePeerTableState } from "./peer_table/state.ts";
import type { PeerTableProps } from "./peer_table/types.ts";

export type { PeerRow, PeerTableProps } from "./peer_table/types.ts";

/**
 * The peers table. The server renders every row; in the browser each row
 * holds its own signals, patched from `PeerHandshake` and `PeerUsage` events
 * by peer id (once per animation frame), so an event re-renders one row however many there
 * are, and the search field hides rows whose visibility changed without
 * touching the others. On the events of `refreshOn` the rows are read again
 * from a fresh render of the page and reconciled by id.
 */
export default function PeerTable(props: PeerTableProps) {
  const state = usePeerTableState(props);
  const cols = props.showInterface ? 8 : 7;
  const entries = state.entries.value;
  return (
    <div class="stack">
      <div class="row spread">
        <p class="muted" data-peer-caption>{state.caption.value}</p>
        {state.stale.value
          ? (
            <span class="live live-offline" role="status">
              Changed elsewhere: <a href="">reload</a>
            </span>
          )
          : <LiveStatus />}
      </div>
      {entries.length === 0 ? <p class="empty">{props.empty}</p> : (
        <>
          <ShownCount count={state.shownCount} total={entries.length} />
          <div class="table-wrap" tabIndex={0} role="region" aria-label={state.caption.value}>
            <table class="peers">
              <caption class="visually-hidden">{state.caption.value}</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  {props.showInterface && <th scope="col">Interface</th>}
                  <th scope="col">Address</th>
                  <th scope="col">Status</th>
                  <th scope="col">Latest handshake</th>
                  <th scope="col" class="num">Received</th>
                  <th scope="col" class="num">Sent</th>
                  <th scope="col">Quota and expiry</th>
                </tr>
              </thead>
              <tbody>
                {entries.map((e) => (
                  <Row key={e.row.id} e={e} now={state.now} showInterface={props.showInterface} />
                ))}
              </tbody>
              {props.totals && <Totals entries={entries} cols={cols} />}
            </table>
          </div>
          <NoMatch count={state.shownCount} />
        </>
      )}
    </div>
  );
}
