/**
 * Peer listings and single peers, each merged with live telemetry from one
 * shared host read.
 */
import { NotFoundError } from "../errors.ts";
import { effectiveAllowedIps } from "./client_config.ts";
import type { TunnelContext } from "./context.ts";
import type { ListedPeer, PeerFilter } from "./peer_repo.ts";
import {
  type ListInterface,
  type PeerView,
  peerView,
  type PeerWithTelemetry,
  telemetryOf,
  viewOfTuple,
} from "./peer_view.ts";

/** A page of a peer listing: `total` counts every match; `limit` is null when none was given. */
export interface PeerPage {
  peers: PeerWithTelemetry[];
  total: number;
  limit: number | null;
  offset: number;
}

type ListingDeps = Pick<TunnelContext, "peerRepo" | "interfaceRepo" | "telemetry">;

export class PeerListing {
  constructor(private readonly ctx: ListingDeps) {}

  /** Peers (all, or filtered) with telemetry from one host read: one SQL query, one dump. */
  async list(filter: PeerFilter = {}): Promise<PeerWithTelemetry[]> {
    // Start the host read first: the query and the objects are built while
    // `wg` works in its own process, and only the merge waits for it.
    const statePromise = this.ctx.telemetry.state();
    const rows = this.ctx.peerRepo.listTuples(filter);
    const ifaces = new Map<string, ListInterface>();
    for (const r of this.ctx.interfaceRepo.summaries()) {
      ifaces.set(r.id, {
        name: r.name,
        split: effectiveAllowedIps(null, "split-tunnel", r.address_v4),
        live: undefined,
      });
    }
    const out = new Array<PeerWithTelemetry>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const a = rows[i];
      out[i] = viewOfTuple(a, ifaces.get(a[1])!);
    }
    const state = await statePromise;
    if (!state) return out;
    for (const i of ifaces.values()) i.live = state.interfaces.get(i.name);
    const nowS = Date.now() / 1000;
    for (const p of out) {
      p.telemetry = telemetryOf(ifaces.get(p.interface_id)!.live, p.public_key, nowS);
    }
    return out;
  }

  /** GET /peers: a listing with its total; without a limit every match is returned. */
  async page(filter: PeerFilter = {}): Promise<PeerPage> {
    const peers = await this.list(filter);
    const offset = filter.offset ?? 0;
    // A full listing is its own total; only a real page needs the count query.
    const total = filter.limit === undefined && offset === 0 ? peers.length : this.count(filter);
    return { peers, total, limit: filter.limit ?? null, offset };
  }

  /** Number of peers matching `filter` (for pagination). */
  count(filter: Omit<PeerFilter, "limit" | "offset"> = {}): number {
    return this.ctx.peerRepo.count(filter);
  }

  #listed(id: string): ListedPeer {
    const r = this.ctx.peerRepo.getListed(id);
    if (!r) throw new NotFoundError(`Peer "${id}" does not exist`);
    return r;
  }

  /** One peer without telemetry; NotFoundError when absent. */
  view(id: string): PeerView {
    return peerView(this.#listed(id));
  }

  /** One peer with live telemetry. */
  async get(id: string): Promise<PeerWithTelemetry> {
    const r = this.#listed(id);
    const state = await this.ctx.telemetry.state();
    const telemetry = state
      ? telemetryOf(state.interfaces.get(r.interface_name), r.public_key, Date.now() / 1000)
      : null;
    return { ...peerView(r), telemetry };
  }
}
