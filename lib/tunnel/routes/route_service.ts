/**
 * Routes Palisade puts on the host (`ip route replace … proto <P> table <T>`
 * by the driver): list, get, create, delete. Each change commits with its
 * audit record, then the whole route list is applied through HostSync; the
 * RouteChanged event goes out only once the host has it (docs/tunnels.md,
 * "Routes").
 */
import { isoTime } from "../../clock.ts";
import { ConflictError, NotFoundError } from "../../errors.ts";
import { isUnique } from "../unique.ts";
import type { TunnelContext } from "../context.ts";
import { keepChange } from "../history/history_write.ts";
import { applyThenAnnounce } from "../host_apply.ts";
import { compareRoutes } from "../net_desired.ts";
import { checkRouteInput, type RouteCreate, routeInterface } from "./route_input.ts";
import type { RouteWithInterface } from "./route_repo.ts";

export type { RouteCreate } from "./route_input.ts";

/** A route as the API shows it. */
export interface RouteView {
  id: string;
  destination: string;
  gateway: string;
  metric: number;
  interface_id: string;
  interface_name: string;
  /** True when the route is desired on the host: its interface is enabled. */
  active: boolean;
  created_at: string;
}

function routeView(r: RouteWithInterface): RouteView {
  return {
    id: r.id,
    destination: r.destination,
    gateway: r.gateway,
    metric: r.metric,
    interface_id: r.interface_id,
    interface_name: r.interface_name,
    active: r.interface_enabled === 1,
    created_at: isoTime(r.created_at),
  };
}

export class RouteService {
  constructor(private readonly ctx: TunnelContext) {}

  /** Every route, by destination block then metric. */
  async list(): Promise<RouteView[]> {
    return (await this.ctx.routeRepo.all()).sort(compareRoutes).map(routeView);
  }

  /** One route; NotFoundError when absent. */
  async get(id: string): Promise<RouteView> {
    return routeView(await this.#require(id));
  }

  /**
   * Stores the route, then applies every route to the host. `restore` (a
   * reverted deletion, lib/tunnel/history/) gives the route back its id.
   */
  async create(input: RouteCreate, actor: string, restore?: { id: string }): Promise<RouteView> {
    const what = `Cannot create route ${JSON.stringify(input?.destination)}`;
    const r = checkRouteInput(input, what);
    const { transactor, interfaceRepo, routeRepo, audit, clock } = this.ctx;
    const id = restore?.id ?? crypto.randomUUID();
    const iface = await transactor.tx(async () => {
      const iface = routeInterface(await interfaceRepo.all(), r, what);
      if (await routeRepo.findByDestination(r.destination, r.metric)) {
        throw new ConflictError(
          `${what}: a route to "${r.destination}" with metric ${r.metric} already exists`,
          { field: "destination", code: "duplicate_route" },
        );
      }
      try {
        await routeRepo.insert({
          id,
          destination: r.destination,
          gateway: r.gateway,
          metric: r.metric,
          interface_id: iface.id,
          created_at: clock.now(),
        });
      } catch (err) {
        throw isUnique(err)
          ? new ConflictError(`${what}: it conflicts with an existing route`, "destination")
          : err;
      }
      await keepChange(this.ctx, "route", id, actor, "Created", null);
      await audit.add({
        actor,
        event_type: "route.created",
        message:
          `Created route "${r.destination}" via "${r.gateway}" on interface "${iface.name}"` +
          ` (metric ${r.metric})`,
        resource_type: "route",
        resource_id: id,
      });
      return iface;
    });
    await applyThenAnnounce(
      this.ctx,
      `Route "${r.destination}"`,
      () => this.ctx.host.syncRoutes(iface.id),
      "RouteChanged",
      { id, action: "created" },
    );
    return this.get(id);
  }

  /** Deletes the route and takes it off the host. */
  async delete(id: string, actor: string): Promise<void> {
    const cur = await this.#require(id);
    const { transactor, routeRepo, audit } = this.ctx;
    await transactor.tx(async () => {
      await routeRepo.delete(id);
      await keepChange(this.ctx, "route", id, actor, "Deleted", cur);
      await audit.add({
        actor,
        event_type: "route.deleted",
        message:
          `Deleted route "${cur.destination}" via "${cur.gateway}" on interface "${cur.interface_name}"` +
          ` (metric ${cur.metric})`,
        resource_type: "route",
        resource_id: id,
      });
    });
    await applyThenAnnounce(
      this.ctx,
      `Deletion of route "${cur.destination}"`,
      () => this.ctx.host.syncRoutes(cur.interface_id),
      "RouteChanged",
      { id, action: "deleted" },
    );
  }

  async #require(id: string): Promise<RouteWithInterface> {
    const r = await this.ctx.routeRepo.get(id);
    if (!r) throw new NotFoundError(`Route "${id}" does not exist`);
    return r;
  }
}
