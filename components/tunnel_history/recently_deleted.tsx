import { isoTime } from "@/lib/clock.ts";
import type { TunnelChange } from "@/lib/tunnel/history/history_repo.ts";
import { labelOf } from "@/lib/tunnel/history/history_write.ts";

/**
 * The objects of a list page deleted most recently, each linking to its
 * History page, where its deletion can be reverted (docs/tunnels.md,
 * "History and revert"). Nothing when none is deleted.
 */
export function RecentlyDeleted(
  { deleted, base }: { deleted: TunnelChange[]; base: (id: string) => string },
) {
  if (deleted.length === 0) return null;
  return (
    <section aria-labelledby="recently-deleted" class="stack">
      <h2 id="recently-deleted">Recently deleted</h2>
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
