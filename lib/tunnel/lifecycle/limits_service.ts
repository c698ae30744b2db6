/**
 * GET, PUT and DELETE /peers/{id}/limits (docs/peer_lifecycle.md): a peer's
 * expiry and traffic quota, and its usage of the current period. Changing
 * the limits keeps the usage counted so far; a peer Palisade disabled for a
 * limit that no longer applies is enabled again at once, and a limit that is
 * already reached disables the peer at once.
 */
import { isoTime } from "../../clock.ts";
import { ValidationError } from "../../errors.ts";
import type { TunnelContext } from "../context.ts";
import { requirePeer } from "../require_row.ts";
import type { LimitEnforcer } from "./enforce.ts";
import type { PeerLimits } from "./limits_repo.ts";
import { periodStart } from "./period.ts";
import { freshLimits, type LimitsView, limitsView } from "./limits_view.ts";

export type { LimitsView } from "./limits_view.ts";

/** PUT /peers/{id}/limits; an absent field keeps its value, null clears it. */
export interface LimitsInput {
  expires_at?: string | null;
  quota_bytes?: number | null;
  /** Null: the calendar month in UTC; N: every N days from the time it was set. */
  quota_period_days?: number | null;
}

export class PeerLimitsService {
  constructor(private readonly ctx: TunnelContext, private readonly enforcer: LimitEnforcer) {}

  async get(peerId: string): Promise<LimitsView> {
    await requirePeer(this.ctx.peerRepo, peerId);
    return this.#view(peerId, await this.ctx.limitsRepo.get(peerId));
  }

  async set(peerId: string, input: LimitsInput, actor: string): Promise<LimitsView> {
    const expiresAt = parseExpiry(input);
    await this.ctx.transactor.tx(() => this.#write(peerId, input, expiresAt, actor, true));
    await this.enforcer.checkOne(peerId);
    return this.get(peerId);
  }

  /**
   * The peer page's one form: the peer's update and its limits in one
   * transaction. `update` runs the peer's update with the limits' write
   * inside its transaction, so a refused limit changes nothing of the peer
   * and a refused peer change sets no limit. Unchanged limits write nothing.
   */
  async setWithPeer(
    peerId: string,
    input: LimitsInput,
    actor: string,
    update: (within: () => Promise<void>) => Promise<unknown>,
  ): Promise<void> {
    const expiresAt = parseExpiry(input);
    await update(() => this.#write(peerId, input, expiresAt, actor, false));
    await this.enforcer.checkOne(peerId);
  }

  /** Inside the caller's transaction; `always`: write even when nothing changes. */
  async #write(
    peerId: string,
    input: LimitsInput,
    expiresAt: number | null | undefined,
    actor: string,
    always: boolean,
  ): Promise<void> {
    const { limitsRepo, peerRepo, audit, clock } = this.ctx;
    const peer = await requirePeer(peerRepo, peerId);
    const now = clock.now();
    const cur = await limitsRepo.get(peerId) ?? freshLimits(peerId, now);
    const days = input.quota_period_days === undefined ? cur.periodDays : input.quota_period_days;
    const anchor = days === cur.periodDays ? cur.periodAnchor : now;
    const next: PeerLimits = {
      ...cur,
      expiresAt: expiresAt === undefined ? cur.expiresAt : expiresAt,
      quotaBytes: input.quota_bytes === undefined ? cur.quotaBytes : input.quota_bytes,
      periodDays: days,
      periodAnchor: anchor,
      periodStart: periodStart({ days, anchor }, now),
      updatedAt: now,
    };
    const same = next.expiresAt === cur.expiresAt && next.quotaBytes === cur.quotaBytes &&
      next.periodDays === cur.periodDays;
    if (same && !always) return;
    await limitsRepo.put(next);
    await audit.add({
      actor,
      event_type: "peer.limits_updated",
      message: `Set limits of peer "${peer.name}": expiry ${
        next.expiresAt === null ? "none" : isoTime(next.expiresAt)
      }, quota ${next.quotaBytes === null ? "none" : `${next.quotaBytes} bytes`} per ${
        days === null ? "calendar month" : `${days} days`
      }`,
      resource_type: "peer",
      resource_id: peerId,
    });
  }

  /** Removes both limits and the usage; a peer they had disabled is enabled again. */
  async clear(peerId: string, actor: string): Promise<{ success: true; message: string }> {
    const { limitsRepo, peerRepo, transactor, audit } = this.ctx;
    const row = (await limitsRepo.all()).find((r) => r.peerId === peerId);
    await transactor.tx(async () => {
      const peer = await requirePeer(peerRepo, peerId);
      await limitsRepo.remove(peerId);
      await audit.add({
        actor,
        event_type: "peer.limits_removed",
        message: `Removed the limits of peer "${peer.name}"`,
        resource_type: "peer",
        resource_id: peerId,
      });
    });
    if (
      row && row.status === "disabled" && row.disabledReason !== null &&
      row.disabledAt === row.peerUpdatedAt
    ) await this.enforcer.enableAfterClear(peerId);
    return { success: true, message: "Peer limits removed" };
  }

  #view(peerId: string, l: PeerLimits | undefined): LimitsView {
    return limitsView(peerId, l, this.ctx.clock.now());
  }
}

/**
 * The input checked before any transaction (the REST schema checks the same;
 * the dashboard's forms come here directly): the expiry as Unix ms
 * (undefined: unchanged, null: none).
 */
function parseExpiry(input: LimitsInput): number | null | undefined {
  const q = input.quota_bytes;
  if (q != null && !(Number.isSafeInteger(q) && q >= 1)) {
    throw new ValidationError(
      `Quota "${q}" is not a whole number of bytes from 1 to 2^53 - 1`,
      "quota_bytes",
    );
  }
  const d = input.quota_period_days;
  if (d != null && !(Number.isInteger(d) && d >= 1 && d <= 3660)) {
    throw new ValidationError(
      `Period "${d}" is not a whole number of days from 1 to 3660`,
      "quota_period_days",
    );
  }
  const expiresAt = input.expires_at == null ? input.expires_at : Date.parse(input.expires_at);
  if (typeof expiresAt === "number" && Number.isNaN(expiresAt)) {
    throw new ValidationError(`Expiry "${input.expires_at}" is not an ISO 8601 time`, "expires_at");
  }
  return expiresAt;
}
