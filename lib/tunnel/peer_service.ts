/**
 * Peers, as routes and pages call them: one object over the modules that do
 * each job (listing with telemetry in peer_listing.ts, create/update/delete
 * in peer_crud.ts, enable/disable/revoke in peer_state.ts, client config and
 * QR in peer_config.ts). A single-peer change touches only that peer on the
 * host (one `wg addconf` with one [Peer], or one `wg set … remove`).
 *
 * Keys: generated server-side (the private key is kept for the client's
 * config download) unless the caller supplies `public_key`, in which case no
 * private key is stored and config download answers 422.
 */
import type { ServerEndpointSource, TunnelContext } from "./context.ts";
import {
  type ClientConfigFile,
  type ConfigOptions,
  PeerConfig,
  type PeerQr,
} from "./peer_config.ts";
import { PeerCrud } from "./peer_crud.ts";
import type { PeerCreate, PeerUpdate } from "./peer_input.ts";
import { PeerListing, type PeerPage, type PeerPageRequest } from "./peer_listing.ts";
import type { PeerFilter } from "./peer_repo.ts";
import { PeerState } from "./peer_state.ts";
import type { PeerView, PeerWithTelemetry } from "./peer_view.ts";

export type { ClientConfigFile, ConfigOptions, PeerQr } from "./peer_config.ts";
export type { PeerCreate, PeerUpdate } from "./peer_input.ts";
export type { PeerPage } from "./peer_listing.ts";
export type { PeerFilter } from "./peer_repo.ts";
export type { PeerTelemetry, PeerView, PeerWithTelemetry } from "./peer_view.ts";

export class PeerService {
  readonly #listing: PeerListing;
  readonly #crud: PeerCrud;
  readonly #state: PeerState;
  readonly #config: PeerConfig;

  constructor(ctx: TunnelContext, serverEndpoint: ServerEndpointSource) {
    this.#listing = new PeerListing(ctx);
    this.#crud = new PeerCrud(ctx, this.#listing);
    this.#state = new PeerState(ctx, this.#listing);
    this.#config = new PeerConfig(ctx, serverEndpoint);
  }

  /** Peers (all, or filtered) with telemetry from one host read. */
  list(filter: PeerFilter = {}): Promise<PeerWithTelemetry[]> {
    return this.#listing.list(filter);
  }

  /** GET /peers: a listing with its total; without a limit every match is returned. */
  page(req: PeerPageRequest = {}): Promise<PeerPage> {
    return this.#listing.page(req);
  }

  /** Number of peers matching `filter` (for pagination). */
  count(filter: Omit<PeerFilter, "limit" | "offset"> = {}): Promise<number> {
    return this.#listing.count(filter);
  }

  /** One peer without telemetry; NotFoundError when absent. */
  view(id: string): Promise<PeerView> {
    return this.#listing.view(id);
  }

  /** One peer with live telemetry. */
  get(id: string): Promise<PeerWithTelemetry> {
    return this.#listing.get(id);
  }

  /** Creates a peer on an interface with an allocated address; applies only that peer to the host. */
  create(interfaceId: string, input: PeerCreate, actor: string): Promise<PeerView> {
    return this.#crud.create(interfaceId, input, actor);
  }

  /** Creates many peers in one transaction and applies them with one diff of the interface. */
  createMany(interfaceId: string, inputs: PeerCreate[], actor: string): Promise<PeerView[]> {
    return this.#crud.createMany(interfaceId, inputs, actor);
  }

  /**
   * Updates parameters; revoked peers cannot be updated (ConflictError). Keys
   * are kept. `within` runs inside the update's transaction, after the peer's
   * write (its repository calls commit or roll back with it).
   */
  update(
    id: string,
    input: PeerUpdate,
    actor: string,
    within?: () => Promise<void>,
  ): Promise<PeerView> {
    return this.#crud.update(id, input, actor, within);
  }

  /** Deletes the peer and removes it from the host. */
  delete(id: string, actor: string): Promise<void> {
    return this.#crud.delete(id, actor);
  }

  /** Puts the peer on the host; ConflictError when revoked. */
  enable(id: string, actor: string): Promise<PeerView> {
    return this.#state.enable(id, actor);
  }

  /** Takes the peer off the host (its sessions end); it keeps its keys and address. */
  disable(id: string, actor: string): Promise<PeerView> {
    return this.#state.disable(id, actor);
  }

  /** Final: off the host, keys erased, never enabled again. Repeating it changes nothing. */
  revoke(id: string, actor: string): Promise<PeerView> {
    return this.#state.revoke(id, actor);
  }

  /** The client's wg-quick file; audited, since it discloses the private key. */
  config(id: string, opts: ConfigOptions, actor: string): Promise<ClientConfigFile> {
    return this.#config.config(id, opts, actor);
  }

  /** QR images of the client configuration (same rules and errors as `config`). */
  qr(id: string, opts: ConfigOptions & { qr_format?: string }, actor: string): Promise<PeerQr> {
    return this.#config.qr(id, opts, actor);
  }
}
