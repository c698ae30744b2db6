import type { HistoryEntry, HistoryRecord, RRsetChange } from "@/lib/dns/history/history_repo.ts";
import { ChangeCard } from "@/components/history/change_card.tsx";

/**
 * A zone's change sets, newest first: who, when, what, and the diff of each
 * RRset touched (records removed, then added). Operators get a revert link.
 */
export function HistoryList(
  { zone, changes, canEdit }: { zone: string; changes: HistoryEntry[]; canEdit: boolean },
) {
  if (changes.length === 0) return <p class="empty">No change of this zone's records yet.</p>;
  const base = `/zones/${encodeURIComponent(zone)}/history`;
  return (
    <ol class="stack history">
      {changes.map((c) => (
        <ChangeCard
          key={c.id}
          change={c}
          revertHref={canEdit ? `${base}/${c.id}/revert` : undefined}
          byline={<>, serial {c.serialFrom} → {c.serialTo}</>}
        >
          <RRsetDiff changes={c.changes} />
        </ChangeCard>
      ))}
    </ol>
  );
}

/** Each RRset's removed records ("−") and added ones ("+"); a record kept with a new TTL is both. */
export function RRsetDiff({ changes }: { changes: RRsetChange[] }) {
  return (
    <ul class="diff">
      {changes.flatMap((c) => [
        ...missing(c.before, c.after).map((r, i) => (
          <li key={`${c.name}-${c.type}-d${i}`} class="removed">
            <span aria-label="Removed">−</span> <code>{line(c, r)}</code>
          </li>
        )),
        ...missing(c.after, c.before).map((r, i) => (
          <li key={`${c.name}-${c.type}-a${i}`} class="added">
            <span aria-label="Added">+</span> <code>{line(c, r)}</code>
          </li>
        )),
      ])}
    </ul>
  );
}

const line = (c: RRsetChange, r: HistoryRecord) => `${c.name}. ${r.ttl} ${c.type} ${r.value}`;

/** The records of `a` not in `b` (value and TTL). */
function missing(a: HistoryRecord[], b: HistoryRecord[]): HistoryRecord[] {
  const left = [...b];
  return a.filter((r) => {
    const i = left.findIndex((x) => x.value === r.value && x.ttl === r.ttl);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
}
