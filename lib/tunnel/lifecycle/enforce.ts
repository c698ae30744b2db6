/**
 * Enforcing limits (docs/peer_lifecycle.md): the host's transfer counters
 * are added to each limited peer's usage after every monitor pass, and the
 * due checks (after each pass and on the housekeeping tick) disable a peer
 * whose quota is used up or whose expiry passed, and start a new period at
 * its boundary, re-enabling a peer the quota had disabled when nobody
 * changed it since. Disabling goes through the peer service, so the host
 * drops the peer, `PeerChanged` fires and `peer.disabled` is audited; the
 * reason is audited beside it and announced as `PeerQuotaReached` or
 * `PeerExpired`.
 */
import type { LiveState } from "../../host/driver.ts";
import type { TunnelContext } from "../context.ts";
import type { PeerView } from "../peer_view.ts";
import type { LimitedPeer, LimitReason, PeerLimits } from "./limits_repo.ts";
import { account, periodStart } from "./period.ts";
import { limitsBrief } from "./limits_view.ts";
import type { PeerUsageItem } from "../../events/bus.ts";

/** What enforcing needs of the peer service. */
export interface PeerSwitch {
  enable(id: string, actor: string): Promise<PeerView>;
  disable(id: string, actor: string): Promise<PeerView>;
}

export const SYSTEM_ACTOR = "system";

/** Peers per `PeerUsage` event: 50 items stay far below PostgreSQL's NOTIFY limit when relayed. */
const USAGE_PER_EVENT = 50;

function usageItem(l: PeerLimits, now: number): PeerUsageItem {
  const b = limitsBrief(l, now);
  return {
    id: l.peerId,
    used_bytes: b.used_bytes,
    quota_bytes: b.quota_bytes,
    days_left: b.days_left,
  };
}

const periodOf = (l: PeerLimits) => ({ days: l.periodDays, anchor: l.periodAnchor });

export class LimitEnforcer {
  constructor(private readonly ctx: TunnelContext, private readonly peers: PeerSwitch) {}

  /**
   * Adds the counters of `state` to the usage of every limited peer on the
   * host. Each row is read and written in one transaction against its stored
   * last-seen counters, so a second read of the same counters adds nothing.
   */
  async account(state: LiveState): Promise<void> {
    const live = new Map<string, { rx: number; tx: number }>();
    for (const iface of state.interfaces.values()) {
      for (const p of iface.peers.values()) live.set(p.publicKey, { rx: p.rxBytes, tx: p.txBytes });
    }
    const { limitsRepo, transactor, clock } = this.ctx;
    const changed: PeerUsageItem[] = [];
    for (const l of await limitsRepo.all()) {
      const c = live.get(l.publicKey);
      if (!c || l.status !== "enabled") continue;
      const next = await transactor.tx(async () => {
        const cur = await limitsRepo.get(l.peerId);
        if (!cur) return null;
        const now = clock.now();
        const u = account(periodOf(cur), cur, c.rx, c.tx, now);
        if (
          u.usedBytes === cur.usedBytes && u.lastRx === cur.lastRx && u.lastTx === cur.lastTx &&
          !u.rolled
        ) return null;
        const row = {
          ...cur,
          periodStart: u.periodStart,
          usedBytes: u.usedBytes,
          lastRx: u.lastRx,
          lastTx: u.lastTx,
        };
        await limitsRepo.put(row);
        return u.usedBytes === cur.usedBytes && !u.rolled ? null : row;
      });
      if (next) changed.push(usageItem(next, clock.now()));
    }
    this.#announce(changed);
    await this.due();
  }

  /** `PeerUsage` for the peers whose usage changed, in events small enough to relay. */
  #announce(items: PeerUsageItem[]): void {
    for (let i = 0; i < items.length; i += USAGE_PER_EVENT) {
      this.ctx.events.emit("PeerUsage", { peers: items.slice(i, i + USAGE_PER_EVENT) });
    }
  }

  /** Disables peers over quota or past expiry; starts new periods. Never throws for one peer. */
  async due(): Promise<void> {
    for (const l of await this.ctx.limitsRepo.all()) {
      try {
        await this.#check(l);
      } catch (err) {
        this.ctx.log.warn("Enforcing a peer's limits failed", { peer: l.peerId, error: err });
      }
    }
  }

  /** The checks for one peer (after its limits were changed, or on a tick). */
  async checkOne(peerId: string): Promise<void> {
    const l = (await this.ctx.limitsRepo.all()).find((r) => r.peerId === peerId);
    if (l) await this.#check(l);
  }

  async #check(l: LimitedPeer): Promise<void> {
    const now = this.ctx.clock.now();
    const start = periodStart(periodOf(l), now);
    if (start > l.periodStart) l = await this.#newPeriod(l, start);
    const expired = l.expiresAt !== null && l.expiresAt <= now;
    const over = l.quotaBytes !== null && l.usedBytes >= l.quotaBytes;
    if (l.status === "enabled") {
      if (expired) await this.#disable(l, "expired");
      else if (over) await this.#disable(l, "quota_reached");
      return;
    }
    // Back on when the reason Palisade disabled it is gone (a new period, a
    // later expiry, a larger quota), unless someone changed the peer since.
    const untouched = l.status === "disabled" && l.disabledReason !== null &&
      l.disabledAt === l.peerUpdatedAt;
    if (untouched && !expired && !over) await this.#enable(l);
  }

  /** Enables a peer its removed limits had disabled. */
  async enableAfterClear(peerId: string): Promise<void> {
    await this.peers.enable(peerId, SYSTEM_ACTOR);
  }

  async #newPeriod(l: LimitedPeer, start: number): Promise<LimitedPeer> {
    const next = { ...l, periodStart: start, usedBytes: 0 };
    await this.ctx.transactor.tx(async () => {
      const cur = await this.ctx.limitsRepo.get(l.peerId);
      if (cur && cur.periodStart < start) {
        await this.ctx.limitsRepo.put({ ...cur, periodStart: start, usedBytes: 0 });
      }
    });
    return next;
  }

  async #disable(l: LimitedPeer, reason: LimitReason): Promise<void> {
    const { peerRepo, limitsRepo, historyRepo, transactor, audit, events } = this.ctx;
    await this.peers.disable(l.peerId, SYSTEM_ACTOR);
    const peer = await peerRepo.get(l.peerId);
    if (!peer) return;
    const detail = reason === "expired"
      ? `it expired at ${new Date(l.expiresAt!).toISOString()}`
      : `it used ${l.usedBytes} of its ${l.quotaBytes} bytes this period`;
    let ours = false;
    await transactor.tx(async () => {
      const cur = await limitsRepo.get(l.peerId);
      // Someone disabled the peer after it was read as enabled: the disable
      // above changed nothing, and marking it as ours would let the next
      // period enable it against that person's intent.
      const [last] = await historyRepo.list("peer", l.peerId, 1);
      if (!cur || last?.actor !== SYSTEM_ACTOR || last.after?.status !== "disabled") return;
      ours = true;
      await limitsRepo.put({ ...cur, disabledReason: reason, disabledAt: peer.updated_at });
      await audit.add({
        actor: SYSTEM_ACTOR,
        event_type: `peer.${reason}`,
        message: `Disabled peer "${l.name}" (${reason}): ${detail}`,
        resource_type: "peer",
        resource_id: l.peerId,
      });
      transactor.afterCommit(() => {
        const base = { id: l.peerId, interface_id: l.interfaceId, name: l.name };
        if (reason === "expired") {
          events.emit("PeerExpired", { ...base, expires_at: new Date(l.expiresAt!).toISOString() });
        } else {
          events.emit("PeerQuotaReached", {
            ...base,
            quota_bytes: l.quotaBytes!,
            used_bytes: l.usedBytes,
            period_start: new Date(l.periodStart).toISOString(),
          });
        }
      });
    });
    if (ours) this.ctx.log.info("Peer disabled by its limits", { peer: l.peerId, reason });
  }

  async #enable(l: LimitedPeer): Promise<void> {
    const { limitsRepo, transactor } = this.ctx;
    await transactor.tx(async () => {
      const cur = await limitsRepo.get(l.peerId);
      if (cur) await limitsRepo.put({ ...cur, disabledReason: null, disabledAt: null });
    });
    await this.peers.enable(l.peerId, SYSTEM_ACTOR);
    this.ctx.log.info("Peer enabled again: its limit no longer applies", { peer: l.peerId });
  }
}
