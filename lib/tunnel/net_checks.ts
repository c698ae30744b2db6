/**
 * What interface changes must respect of the routes and firewall rules that
 * name an interface: a route or rule keeps its interface (the foreign keys
 * are RESTRICT), and a route's gateway must stay reachable through it.
 */
import { ConflictError, UnprocessableError } from "../errors.ts";
import type { TunnelRepos } from "./context.ts";
import type { InterfaceRow } from "./interface_repo.ts";
import { parseCidr, parseIpv4 } from "./ipv4.ts";
import { routeInterface } from "./routes/route_input.ts";

type Repos = Pick<TunnelRepos, "routeRepo" | "firewallRepo">;

/** Refuses (409, field id) deleting an interface that routes or firewall rules use, naming them. */
export async function checkInterfaceUnused(repos: Repos, iface: InterfaceRow): Promise<void> {
  const routes = (await repos.routeRepo.ofInterface(iface.id)).map((r) => `"${r.destination}"`);
  const rules = (await repos.firewallRepo.ofInterface(iface.id)).map((r) => `"${r.name}"`);
  if (!routes.length && !rules.length) return;
  const users = [
    routes.length ? `routes ${routes.join(", ")}` : "",
    rules.length ? `firewall rules ${rules.join(", ")}` : "",
  ].filter(Boolean).join(" and ");
  throw new ConflictError(
    `Cannot delete interface "${iface.name}": ${users} use it; delete them first`,
    { field: "id", code: "interface_in_use" },
  );
}

/**
 * Refuses (422, field address_v4) a new block for the interface that one of
 * its routes would not fit: the gateway must stay another host of the block,
 * and no destination may fall inside it.
 */
export async function checkRoutesFit(
  repos: Repos,
  interfaces: InterfaceRow[],
  id: string,
  address: string,
  what: string,
): Promise<void> {
  const changed = interfaces.map((i) => i.id === id ? { ...i, address_v4: address } : i);
  for (const r of await repos.routeRepo.ofInterface(id)) {
    const input = {
      destination: r.destination,
      cidr: parseCidr(r.destination)!,
      gateway: r.gateway,
      gatewayIp: parseIpv4(r.gateway)!,
      metric: r.metric,
      interfaceId: id,
    };
    try {
      routeInterface(changed, input, `${what}: route "${r.destination}"`);
    } catch (err) {
      if (!(err instanceof UnprocessableError)) throw err;
      throw new UnprocessableError(err.message, "address_v4");
    }
  }
}
