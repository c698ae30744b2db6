/**
 * Writes the history of peers, firewall rules and routes (docs/tunnels.md,
 * "History and revert"): each service calls `keepChange()` once, inside the
 * change's transaction, after its write, with the object as it read it
 * before. The object after is read here, so every column a row gains later
 * (a peer's expiry, say) flows into history without a change here. Secrets
 * never enter a snapshot: a peer's private and preshared keys become
 * `has_private_key` / `has_preshared_key`.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { ConflictError } from "../../errors.ts";
import type { TunnelContext } from "../context.ts";
import type { HistoryKind, Snapshot } from "./history_repo.ts";

/** Changes kept per object; older ones are dropped when the object next changes. */
export const HISTORY_KEEP = 100;

/** Columns that are secrets: kept as a has_<column> flag, never as a value. */
const SECRETS = ["private_key", "preshared_key"];
/** Columns that move on every write or mirror another object's state: left out of snapshots. */
const NOISE = ["created_at", "updated_at", "interface_enabled"];

export const KIND_NOUN: Record<HistoryKind, string> = {
  peer: "peer",
  firewall_rule: "firewall rule",
  route: "route",
};

/** A row (peer, rule or route) as history keeps it: no secret, no timestamp, bigints as numbers. */
export function snapshot(row: object | undefined | null): Snapshot | null {
  if (!row) return null;
  const out: Snapshot = {};
  for (const [k, v] of Object.entries(row)) {
    if (NOISE.includes(k)) continue;
    if (SECRETS.includes(k)) out[`has_${k}`] = v !== null && v !== undefined && v !== "";
    else out[k] = typeof v === "bigint" ? Number(v) : v;
  }
  return out;
}

/** What people call the object: its name, or a route's destination. */
export function labelOf(...states: (Snapshot | null)[]): string {
  for (const s of states) {
    const label = s?.name ?? s?.destination;
    if (typeof label === "string") return label;
  }
  return "?";
}

/** The object as stored now, as history keeps it. */
export async function currentState(
  ctx: TunnelContext,
  kind: HistoryKind,
  id: string,
): Promise<Snapshot | null> {
  const row = kind === "peer"
    ? await ctx.peerRepo.get(id)
    : kind === "firewall_rule"
    ? await ctx.firewallRepo.get(id)
    : await ctx.routeRepo.get(id);
  return snapshot(row);
}

/** A revert in progress: the changes written under it are marked as reverting `entry`. */
interface RevertScope {
  kind: HistoryKind;
  objectId: string;
  entry: number;
  /** Whether this revert has written its first change (only that one is checked). */
  written: boolean;
}

const reverting = new AsyncLocalStorage<RevertScope>();

/**
 * Runs `fn` (a service call) as the revert of change `entry` of the object;
 * resolves with whether it kept a change (false: nothing was put back).
 */
export async function asRevert(
  scope: Omit<RevertScope, "written">,
  fn: () => Promise<unknown>,
): Promise<boolean> {
  const state = { ...scope, written: false };
  await reverting.run(state, fn);
  return state.written;
}

/** ConflictError (code "history_conflict") when the object changed after change `entry`. */
export async function refuseLater(
  ctx: TunnelContext,
  kind: HistoryKind,
  objectId: string,
  entry: number,
): Promise<void> {
  const later = await ctx.historyRepo.newer(kind, objectId, entry);
  if (!later) return;
  throw new ConflictError(
    `Change ${later.id} ("${later.summary}") changed this ${
      KIND_NOUN[kind]
    } after change ${entry}; revert it first`,
    { field: "entry", code: "history_conflict" },
  );
}

/**
 * Keeps one change of the object: `before` as the service read it, the
 * object after read now. Under a revert it is marked as such, audited as the
 * revert of its entry, and refused (rolling the change back) when another
 * change of the object came in between.
 */
export async function keepChange(
  ctx: TunnelContext,
  kind: HistoryKind,
  objectId: string,
  actor: string,
  summary: string,
  beforeRow: object | null | undefined,
): Promise<void> {
  const before = snapshot(beforeRow);
  const after = await currentState(ctx, kind, objectId);
  if (JSON.stringify(before) === JSON.stringify(after)) return;
  const scope = reverting.getStore();
  const revert = scope && scope.kind === kind && scope.objectId === objectId ? scope : undefined;
  if (revert && !revert.written) await refuseLater(ctx, kind, objectId, revert.entry);
  await ctx.historyRepo.add({
    kind,
    objectId,
    actor,
    summary: revert ? `Reverted change ${revert.entry}: ${summary}` : summary,
    before,
    after,
    reverts: revert?.entry ?? null,
    createdAt: ctx.clock.now(),
  });
  if (revert && !revert.written) {
    revert.written = true;
    await ctx.audit.add({
      actor,
      event_type: `${kind}.history.reverted`,
      message: `Reverted change ${revert.entry} of ${KIND_NOUN[kind]} "${labelOf(before, after)}"`,
      resource_type: kind,
      resource_id: objectId,
    });
  }
  await ctx.historyRepo.trim(kind, objectId, HISTORY_KEEP);
}
