/**
 * Enable, disable and revoke. Revoke is final: the peer leaves the host, its
 * private and preshared keys are erased, and it can never be enabled or
 * updated again; its public key and address stay reserved until the record
 * is deleted.
 */
import { ConflictError } from "../errors.ts";
import type { TunnelContext } from "./context.ts";
import { keepChange } from "./history/history_write.ts";
import { applyThenEmit, applyToHost } from "./host_apply.ts";
import { publishPeer } from "./peer_dns.ts";
import type { PeerListing } from "./peer_listing.ts";
import type { PeerStatus } from "./peer_repo.ts";
import type { PeerView } from "./peer_view.ts";
import { requireInterface, requirePeer } from "./require_row.ts";
import { SYSTEM_ACTOR } from "./lifecycle/enforce.ts";

export class PeerState {
  constructor(
    private readonly ctx: TunnelContext,
    private readonly listing: PeerListing,
  ) {}

  /** Puts the peer on the host; ConflictError when revoked. */
  enable(id: string, actor: string): Promise<PeerView> {
    return this.#set(id, "enabled", actor);
  }

  /** Takes the peer off the host (its sessions end); it keeps its keys and address. */
  disable(id: string, actor: string): Promise<PeerView> {
    return this.#set(id, "disabled", actor);
  }

  /** Final: off the host, keys erased, never enabled again. Repeating it changes nothing. */
  revoke(id: string, actor: string): Promise<PeerView> {
    return this.#set(id, "revoked", actor);
  }

  async #set(id: string, status: PeerStatus, actor: string): Promise<PeerView> {
    const { peerRepo, interfaceRepo, transactor, audit, clock, host } = this.ctx;
    const cur = await requirePeer(peerRepo, id);
    const verb = status === "enabled" ? "enable" : status === "disabled" ? "disable" : "revoke";
    if (cur.status === "revoked" && status !== "revoked") {
      throw new ConflictError(`Cannot ${verb} peer "${cur.name}": it is revoked`);
    }
    const iface = await requireInterface(interfaceRepo, cur.interface_id);
    const what = `Peer "${cur.name}"`;
    // Applied even when unchanged, so enable also repairs a peer removed by hand.
    const apply = () => host.syncPeer(id);
    if (cur.status === status) {
      if (status === "disabled" && actor !== SYSTEM_ACTOR) await this.#keepDisabled(id);
      await applyToHost(this.ctx, what, apply);
      return this.listing.view(id);
    }
    await transactor.tx(async () => {
      await peerRepo.setStatus(id, status, clock.now());
      await keepChange(
        this.ctx,
        "peer",
        id,
        actor,
        `${verb[0].toUpperCase()}${verb.slice(1)}d`,
        cur,
      );
      await publishPeer(this.ctx, id, actor, "status");
      await audit.add({
        actor,
        event_type: `peer.${status}`,
        message: `${status[0].toUpperCase()}${
          status.slice(1)
        } peer "${cur.name}" on interface "${iface.name}"`,
        resource_type: "peer",
        resource_id: id,
      });
    });
    await applyThenEmit(this.ctx, what, apply, "PeerChanged", {
      id,
      action: status,
      interface_id: iface.id,
      name: cur.name,
    });
    return this.listing.view(id);
  }

  /**
   * A person disabling a peer its limits had disabled makes it theirs: the
   * reason goes, so the enforcer does not enable it at the next period
   * (docs/peer_lifecycle.md). The peer's row is unchanged, so its
   * `updated_at` cannot tell.
   */
  async #keepDisabled(id: string): Promise<void> {
    const { limitsRepo, transactor } = this.ctx;
    await transactor.tx(async () => {
      const cur = await limitsRepo.get(id);
      if (cur?.disabledReason) {
        await limitsRepo.put({ ...cur, disabledReason: null, disabledAt: null });
      }
    });
  }
}
