/**
 * Applies stored state to the host after a change commits. All host work of
 * the tunnel services goes through one queue, and each job reads the desired
 * state from the store when it runs, not when it was queued: whatever order
 * jobs finish in, the last one applies the newest state.
 *
 * Consistency model (docs/tunnels.md): the store is the source of truth. A
 * failed host apply does not roll the store back; the caller gets a HostError
 * (500) saying the change was saved, the drift shows in the reconcile plan
 * and the periodic pass, and `POST /reconcile/apply` converges it.
 */
import { HostError } from "../errors.ts";
import type { HostDriver, SyncResult } from "../host/driver.ts";
import type { Logger } from "../log/log.ts";
import type { TunnelRepos } from "./context.ts";
import { desiredPeer, desiredState, peerKey, routedPrefixes } from "./desired_state.ts";
import { desiredFirewall, desiredRoutes } from "./net_desired.ts";

export class HostSync {
  #queue: Promise<unknown> = Promise.resolve();
  #pending = 0;

  constructor(
    readonly repos: TunnelRepos,
    readonly driver: HostDriver,
    private readonly log: Logger,
  ) {}

  /**
   * Committed changes whose host apply has not finished. The drift check
   * skips a pass while this is non-zero, so a change in flight is never
   * reported as drift.
   */
  get pending(): number {
    return this.#pending;
  }

  /** Runs `fn` after every host job queued before it. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(fn, fn);
    this.#queue = next.catch(() => {});
    return next;
  }

  /**
   * Queues a host apply for a change that just committed. Call it right after
   * the transaction, in the same tick, so `pending` covers the gap.
   */
  async apply(what: string, fn: () => Promise<unknown>): Promise<void> {
    if (!this.driver.active) return;
    this.#pending++;
    try {
      await this.run(fn);
    } catch (err) {
      const reason = err instanceof HostError ? err.message : (err as Error).message;
      this.log.error("Host apply failed", { what, error: err, detail: (err as HostError).detail });
      throw new HostError(
        `${what} was saved, but applying it to the host failed: ${reason}`,
        (err as HostError).detail,
      );
    } finally {
      this.#pending--;
    }
  }

  /** Converges one interface (diff against one read of the host). */
  syncInterface(id: string): Promise<SyncResult | null> {
    return this.#syncIds([id]).then((r) => r[0] ?? null);
  }

  async #syncIds(ids: string[]): Promise<SyncResult[]> {
    const out: SyncResult[] = [];
    const state = await this.driver.read();
    for (const { desired } of await desiredState(this.repos, ids)) {
      out.push(await this.driver.sync(desired, state?.interfaces.get(desired.name) ?? null));
    }
    return out;
  }

  /** Sets or removes one peer on its interface as the store now says, touching no other peer. */
  async syncPeer(peerId: string, fallback?: { ifName: string; publicKey: string }): Promise<void> {
    const row = await this.repos.peerRepo.getWithInterfaceName(peerId);
    if (!row) {
      // Deleted: remove by the identity it had.
      if (fallback) await this.driver.setPeers(fallback.ifName, [], [fallback.publicKey]);
      return;
    }
    const ifName = row.interface_name;
    if (row.status !== "enabled") return this.driver.setPeers(ifName, [], [row.public_key]);
    const routed = (await routedPrefixes(this.repos)).get(peerKey(row)) ?? [];
    await this.driver.setPeers(ifName, [desiredPeer(row, routed)], []);
  }

  /**
   * Makes Palisade's routes on the host the stored routes of enabled
   * interfaces. `interfaceId`: a route of that interface was added or
   * removed, so its peers' AllowedIPs (the routed destinations) are
   * converged first, touching only the gateway peer.
   */
  async syncRoutes(interfaceId?: string): Promise<void> {
    if (interfaceId) await this.#syncIds([interfaceId]);
    await this.driver.setRoutes(await desiredRoutes(this.repos));
  }

  /** Replaces Palisade's firewall table with the enabled stored rules, in order. */
  async syncFirewall(): Promise<void> {
    await this.driver.setFirewall(await desiredFirewall(this.repos));
  }

  /** Re-applies the routes when some go through the interface (its name, block or link changed). */
  async syncRoutesOf(interfaceId: string): Promise<void> {
    if ((await this.repos.routeRepo.ofInterface(interfaceId)).length) await this.syncRoutes();
  }

  /** Re-applies the firewall table when some rule matches the interface (its name changed). */
  async syncFirewallOf(interfaceId: string): Promise<void> {
    if ((await this.repos.firewallRepo.ofInterface(interfaceId)).length) await this.syncFirewall();
  }
}
