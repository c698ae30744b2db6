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
    const { limitsRepo, peerRepo, transactor, audit, clock } = this.ctx;
    const expiresAt = input.expires_at == null ? input.expires_at : Date.parse(input.expires_at);
    if (typeof expiresAt === "number" && Number.isNaN(expiresAt)) {
      throw new ValidationError(
        `Expiry "${input.expires_at}" is not an ISO 8601 time`,
        "expires_at",
      );
    }
    await transactor.tx(async () => {
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
    });
    await this.enforcer.checkOne(peerId);
    return this.get(peerId);
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
