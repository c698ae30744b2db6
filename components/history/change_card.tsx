import type { ComponentChildren } from "preact";
import { isoTime } from "@/lib/clock.ts";

/** What every kept change shows, whatever it changed (a zone's records, a peer, a rule, a route). */
export interface ChangeHead {
  id: number;
  summary: string;
  actor: string;
  createdAt: number;
  /** The change this one reverted, if it is a revert. */
  reverts: number | null;
}

/**
 * One change of a History page: its number and summary, who and when, what it
 * reverted, a revert link for operators (`revertHref`), then its diff.
 */
export function ChangeCard(
  { change: c, revertHref, byline, children }: {
    change: ChangeHead;
    revertHref?: string;
    /** Said after the time, e.g. the zone's serial step. */
    byline?: ComponentChildren;
    children: ComponentChildren;
  },
) {
  return (
    <li class="card stack" id={`change-${c.id}`}>
      <div class="row spread">
        <h2 class="h3">Change {c.id}: {c.summary}</h2>
        {revertHref && (
          <a class="button-link" href={revertHref}>
            Revert…<span class="visually-hidden">{` change ${c.id}`}</span>
          </a>
        )}
      </div>
      <p class="muted">
        By <strong>{c.actor}</strong> at{" "}
        <time dateTime={isoTime(c.createdAt)}>{isoTime(c.createdAt)}</time>
        {byline}
        {c.reverts !== null && <>, reverting change {c.reverts}</>}
      </p>
      {children}
    </li>
  );
}
