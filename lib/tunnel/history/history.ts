/**
 * The history of a peer, a firewall rule or a route, and the revert of one
 * change (docs/tunnels.md, "History and revert"). A revert is refused with
 * 409 (code `history_conflict`) when the object changed after the change,
 * since putting it back would undo that later change too; it runs through the
 * object's own service (revert.ts) and is itself a change, audited as the
 * revert of its entry.
 */
import { ConflictError, NotFoundError } from "../../errors.ts";
import type { TunnelContext } from "../context.ts";
import type { HistoryKind, TunnelChange } from "./history_repo.ts";
import { asRevert, currentState, KIND_NOUN, labelOf, refuseLater } from "./history_write.ts";
import { applyBefore, type RevertTargets } from "./revert.ts";

/** Most changes one page of history shows. */
export const HISTORY_PAGE = 50;
/** Most deleted objects a list page offers to restore. */
export const DELETED_SHOWN = 10;

export interface HistoryPage {
  kind: HistoryKind;
  object_id: string;
  /** Whether the object exists now (a deleted one keeps its history). */
  exists: boolean;
  /** Its name (a route: its destination), now or as last kept. */
  label: string;
  changes: TunnelChange[];
}

export interface RevertResult {
  kind: HistoryKind;
  object_id: string;
  reverted: number;
}

export class TunnelHistory {
  constructor(
    private readonly ctx: TunnelContext,
    private readonly targets: RevertTargets,
  ) {}

  /** The object's changes, newest first; NotFoundError when it neither exists nor has history. */
  async list(
    kind: HistoryKind,
    objectId: string,
    opts: { limit?: number; before?: number } = {},
  ): Promise<HistoryPage> {
    const limit = Math.min(Math.max(1, Math.trunc(opts.limit ?? HISTORY_PAGE)), HISTORY_PAGE);
    const changes = await this.ctx.historyRepo.list(kind, objectId, limit, opts.before);
    const now = await currentState(this.ctx, kind, objectId);
    if (!now && changes.length === 0 && opts.before === undefined) throw notFound(kind, objectId);
    const label = labelOf(now, changes[0]?.after ?? null, changes[0]?.before ?? null);
    return { kind, object_id: objectId, exists: now !== null, label, changes };
  }

  /** The kind's objects deleted most recently (still deleted), by their deletion, newest first. */
  deleted(kind: HistoryKind, limit = DELETED_SHOWN): Promise<TunnelChange[]> {
    return this.ctx.historyRepo.deleted(kind, limit);
  }

  /** One change of the object; NotFoundError when absent. */
  async get(kind: HistoryKind, objectId: string, entry: number): Promise<TunnelChange> {
    const c = Number.isSafeInteger(entry) && entry > 0
      ? await this.ctx.historyRepo.get(kind, objectId, entry)
      : undefined;
    if (!c) {
      throw new NotFoundError(
        `Change "${entry}" not found in the history of ${KIND_NOUN[kind]} "${objectId}"`,
        "entry",
      );
    }
    return c;
  }

  /** Puts the object back as it was before change `entry`, as a new change. */
  async revert(
    kind: HistoryKind,
    objectId: string,
    entry: number,
    actor: string,
  ): Promise<RevertResult> {
    const c = await this.get(kind, objectId, entry);
    // Checked first for a clear refusal before any validation; the write
    // checks again in its own transaction (history_write.ts).
    await refuseLater(this.ctx, kind, objectId, c.id);
    const scope = { kind, objectId, entry: c.id };
    if (!await asRevert(scope, () => applyBefore(this.targets, c, actor))) {
      // Only fields the service cannot set differed (a counter, say): nothing changed.
      throw new ConflictError(
        `Cannot revert change ${c.id} of ${KIND_NOUN[kind]} "${
          labelOf(c.before, c.after)
        }": none of what it changed can be set back`,
        { field: "entry", code: "history_irreversible" },
      );
    }
    return { kind, object_id: objectId, reverted: c.id };
  }
}

function notFound(kind: HistoryKind, id: string): NotFoundError {
  const noun = KIND_NOUN[kind];
  return new NotFoundError(`${noun[0].toUpperCase()}${noun.slice(1)} "${id}" does not exist`);
}
