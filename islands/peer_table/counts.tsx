import { computed, type ReadonlySignal } from "@preact/signals";
import { useMemo } from "preact/hooks";
import { formatBytes } from "@/components/format.ts";
import type { Entry } from "./types.ts";

/** The footer summing every row's transfer, live. */
export function Totals({ entries, cols }: { entries: Entry[]; cols: number }) {
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
        <th scope="row" colSpan={cols - 3}>Total transfer</th>
        <td class="num" data-cell="total-rx">{formatBytes(s?.rx)}</td>
        <td class="num" data-cell="total-tx">{formatBytes(s?.tx)}</td>
        <td />
      </tr>
    </tfoot>
  );
}

/** How many rows the search leaves, for screen readers. */
export function ShownCount({ count, total }: { count: ReadonlySignal<number>; total: number }) {
  return (
    <p class="visually-hidden" role="status" aria-live="polite">
      {count.value === total
        ? `${total} ${total === 1 ? "peer" : "peers"}`
        : `${count.value} of ${total} peers shown`}
    </p>
  );
}

/** Said when the search hides every row. */
export function NoMatch({ count }: { count: ReadonlySignal<number> }) {
  return count.value === 0 ? <p class="empty">No peer matches this search.</p> : null;
}
