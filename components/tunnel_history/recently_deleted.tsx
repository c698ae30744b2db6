import { isoTime } from "@/lib/clock.ts";
import type { TunnelChange } from "@/lib/tunnel/history/history_repo.ts";
import { labelOf } from "@/lib/tunnel/history/history_write.ts";

/**
 * The objects of a list page deleted most recently, each linking to its
 * History page, where its deletion can be reverted (docs/tunnels.md,
 * "History and revert"). Nothing when none is deleted. `note` says what the
 * History page cannot do for this kind (a peer's deletion is not revertible).
 */
export function RecentlyDeleted(
  { deleted, base, note }: {
    deleted: TunnelChange[];
    base: (id: string) => string;
    note?: string;
  },
) {
  if (deleted.length === 0) return null;
  return (
    <section aria-labelledby="recently-deleted" class="stack">
      <h2 id="recently-deleted">Recently deleted</h2>
      {note && <p class="help">{note}</p>}
      <ul>
        {deleted.map((c) => (
          <li key={c.id}>
            <a href={`${base(c.objectId)}/history`}>{labelOf(c.before)}</a>, deleted by {c.actor} at
            {" "}
            <time dateTime={isoTime(c.createdAt)}>{isoTime(c.createdAt)}</time>
          </li>
        ))}
      </ul>
    </section>
  );
}
