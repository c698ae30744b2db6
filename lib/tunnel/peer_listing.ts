/**
 * Peer listings and single peers, each merged with live telemetry from one
 * shared host read.
 */
import { NotFoundError } from "../errors.ts";
import { effectiveAllowedIps } from "./client_config.ts";
import type { TunnelContext } from "./context.ts";
import { paginateAsync } from "../paging.ts";
import type { ListedPeer, PeerFilter, PeerTuple } from "./peer_repo.ts";
import { limitsBrief } from "./lifecycle/limits_view.ts";
import {
  type ListInterface,
  type PeerView,
  peerView,
  type PeerWithTelemetry,
  telemetryOf,
  viewOfTuple,
} from "./peer_view.ts";

/**
 * A page of a peer listing: `total` counts every match; `limit` is null when
 * none was given; `next_cursor` (docs/api.md, "Pagination") is null on the
 * last page.
 */
export interface PeerPage {
  peers: PeerWithTelemetry[];
  total: number;
  limit: number | null;
  offset: number;
  next_cursor: string | null;
}

/** A listing request: the filter and the shared paging fields. */
export type PeerPageRequest = Omit<PeerFilter, "after"> & { cursor?: string };

type ListingDeps = Pick<
  TunnelContext,
  "peerRepo" | "interfaceRepo" | "telemetry" | "limitsRepo" | "clock"
>;

export class PeerListing {
  constructor(private readonly ctx: ListingDeps) {}

  /** Peers (all, or filtered) with telemetry from one host read: one SQL query, one dump. */
  async list(filter: PeerFilter = {}): Promise<PeerWithTelemetry[]> {
    // Start the host read first: the query and the objects are built while
    // `wg` works in its own process, and only the merge waits for it.
    const statePromise = this.ctx.telemetry.state();
    const ifaces = await this.#interfaces();
    return this.#views(await this.ctx.peerRepo.listTuples(filter), ifaces, statePromise);
  }

  /**
   * GET /peers: a page with its total; without a limit every match is
   * returned. The cursor is keyset on (interface name, peer name, id).
   */
  async page(req: PeerPageRequest = {}): Promise<PeerPage> {
    const statePromise = this.ctx.telemetry.state();
    // A bad cursor throws before the read is awaited: its failure is then no one's to report.
    statePromise.catch(() => {});
    const ifaces = await this.#interfaces();
    const { limit, offset, cursor, ...filter } = req;
    const { items, total, next_cursor } = await paginateAsync<PeerTuple>(
      { limit, offset, cursor },
      {
        kind: "peers",
        shape: ["s", "s", "s"],
        keyOf: (t) => [ifaces.get(t[1])!.name, t[2], t[0]],
        rows: (w) =>
          this.ctx.peerRepo.listTuples({
            ...filter,
            after: w.after as [string, string, string] | undefined,
            limit: w.limit,
            offset: w.offset,
          }),
        count: () => this.ctx.peerRepo.count(filter),
      },
    );
    const peers = await this.#views(items, ifaces, statePromise);
    return { peers, total, limit: limit ?? null, offset: offset ?? 0, next_cursor };
  }

  /** Number of peers matching `filter` (for pagination). */
  count(filter: Omit<PeerFilter, "limit" | "offset"> = {}): Promise<number> {
    return this.ctx.peerRepo.count(filter);
  }

  async #interfaces(): Promise<Map<string, ListInterface>> {
    const ifaces = new Map<string, ListInterface>();
    for (const r of await this.ctx.interfaceRepo.summaries()) {
      ifaces.set(r.id, {
        name: r.name,
        split: effectiveAllowedIps(null, "split-tunnel", r.address_v4),
        live: undefined,
      });
    }
    return ifaces;
  }

  /** The rows as views, merged with the host state once it is read. */
  async #views(
    rows: PeerTuple[],
    ifaces: Map<string, ListInterface>,
    statePromise: ReturnType<ListingDeps["telemetry"]["state"]>,
  ): Promise<PeerWithTelemetry[]> {
    const out = new Array<PeerWithTelemetry>(rows.length);
    const ids = new Array<string>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const a = rows[i];
      out[i] = viewOfTuple(a, ifaces.get(a[1])!);
      ids[i] = a[0];
    }
    await this.#mergeLimits(out, ids);
    const state = await statePromise;
    if (!state) return out;
    for (const i of ifaces.values()) i.live = state.interfaces.get(i.name);
    const nowS = Date.now() / 1000;
    for (const p of out) {
      p.telemetry = telemetryOf(ifaces.get(p.interface_id)!.live, p.public_key, nowS);
    }
    return out;
  }

  /** The limits of the listed peers, read in one query for the whole page. */
  async #mergeLimits(out: PeerWithTelemetry[], ids: string[]): Promise<void> {
    const rows = await this.ctx.limitsRepo.forPeers(ids);
    if (!rows.length) return;
    const now = this.ctx.clock.now();
    const byId = new Map(rows.map((l) => [l.peerId, limitsBrief(l, now)]));
    for (const p of out) p.limits = byId.get(p.id) ?? null;
  }

  async #listed(id: string): Promise<ListedPeer> {
    const r = await this.ctx.peerRepo.getListed(id);
    if (!r) throw new NotFoundError(`Peer "${id}" does not exist`);
    return r;
  }

  /** One peer without telemetry; NotFoundError when absent. */
  async view(id: string): Promise<PeerView> {
    return peerView(await this.#listed(id));
  }

  /** One peer with live telemetry. */
  async get(id: string): Promise<PeerWithTelemetry> {
    const r = await this.#listed(id);
    const l = await this.ctx.limitsRepo.get(id);
    const state = await this.ctx.telemetry.state();
    const telemetry = state
      ? telemetryOf(state.interfaces.get(r.interface_name), r.public_key, Date.now() / 1000)
      : null;
    return { ...peerView(r), telemetry, limits: l ? limitsBrief(l, this.ctx.clock.now()) : null };
  }
}
