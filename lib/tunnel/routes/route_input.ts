/**
 * What a route must satisfy before it is stored (docs/tunnels.md, "Routes").
 * Malformed input is 400 (ValidationError); well-formed input that cannot be
 * applied is 422 (UnprocessableError): a metric out of range, a gateway no
 * managed interface reaches, a destination inside an interface's own block.
 */
import { UnprocessableError, ValidationError } from "../../errors.ts";
import type { InterfaceRow } from "../interface_repo.ts";
import { type Cidr, contains, formatIpv4, isHostAddress, networkCidr, parseCidr } from "../ipv4.ts";
import { checkCanonicalCidr, checkIpv4, optionalId } from "../net_input.ts";

export const METRIC_MIN = 0;
/** The kernel's route priority is an unsigned 32-bit number. */
export const METRIC_MAX = 4294967295;

/** POST /routes */
export interface RouteCreate {
  /** Canonical IPv4 block, e.g. "10.50.0.0/24"; "0.0.0.0/0" is the default route. */
  destination: string;
  /** Next hop inside a managed interface's block. */
  gateway: string;
  /** 0 when absent. */
  metric?: number;
  /** The interface to route through; when absent or null, the one whose block holds the gateway. */
  interface_id?: string | null;
}

/** A route's fields, checked for shape and range. */
export interface RouteInput {
  destination: string;
  cidr: Cidr;
  gateway: string;
  gatewayIp: number;
  metric: number;
  interfaceId: string | null;
}

/** Shape (400) and metric range (422) of a route; the interface is resolved later, in the transaction. */
export function checkRouteInput(input: RouteCreate, what: string): RouteInput {
  const { text: destination, cidr } = checkCanonicalCidr(input.destination, "destination", what);
  const gatewayIp = checkIpv4(input.gateway, "gateway", what);
  const metric = input.metric ?? 0;
  if (typeof metric !== "number" || !Number.isInteger(metric)) {
    throw new ValidationError(`${what}: metric must be an integer`, "metric");
  }
  if (metric < METRIC_MIN || metric > METRIC_MAX) {
    throw new UnprocessableError(
      `${what}: metric ${metric} is outside ${METRIC_MIN}-${METRIC_MAX}`,
      "metric",
    );
  }
  const interfaceId = optionalId(input.interface_id, "interface_id", what);
  return { destination, cidr, gateway: formatIpv4(gatewayIp), gatewayIp, metric, interfaceId };
}

/**
 * The managed interface the route goes through: the one named by
 * `interface_id`, else the one whose block holds the gateway (blocks never
 * overlap, so there is at most one). The gateway must be another host of
 * that block, and the destination must not lie inside any interface's block,
 * which that interface's link already routes (a route of the same block and
 * metric would replace the kernel's own).
 */
export function routeInterface(
  interfaces: InterfaceRow[],
  r: RouteInput,
  what: string,
): InterfaceRow {
  const blocks = interfaces.map((row) => ({ row, cidr: parseCidr(row.address_v4)! }));
  const gw = JSON.stringify(r.gateway);
  let through;
  if (r.interfaceId !== null) {
    through = blocks.find((b) => b.row.id === r.interfaceId);
    if (!through) {
      throw new UnprocessableError(
        `${what}: interface_id "${r.interfaceId}" is not a managed interface`,
        "interface_id",
      );
    }
    if (!contains(through.cidr, r.gatewayIp)) {
      throw new UnprocessableError(
        `${what}: gateway ${gw} is not inside "${
          networkCidr(through.cidr)
        }" of interface "${through.row.name}"`,
        "gateway",
      );
    }
  } else {
    through = blocks.find((b) => contains(b.cidr, r.gatewayIp));
    if (!through) {
      throw new UnprocessableError(
        `${what}: gateway ${gw} is not reachable through any managed interface`,
        "gateway",
      );
    }
  }
  const { row, cidr } = through;
  if (r.gatewayIp === cidr.address) {
    throw new UnprocessableError(
      `${what}: gateway ${gw} is the address of interface "${row.name}" itself`,
      "gateway",
    );
  }
  if (!isHostAddress(cidr, r.gatewayIp)) {
    throw new UnprocessableError(
      `${what}: gateway ${gw} is not a host address of "${networkCidr(cidr)}"`,
      "gateway",
    );
  }
  checkDestinationOutsideBlocks(blocks, r, what);
  return row;
}

function checkDestinationOutsideBlocks(
  blocks: { row: InterfaceRow; cidr: Cidr }[],
  r: RouteInput,
  what: string,
): void {
  for (const { row, cidr } of blocks) {
    if (r.cidr.prefix >= cidr.prefix && contains(cidr, r.cidr.address)) {
      throw new UnprocessableError(
        `${what}: destination "${r.destination}" lies inside "${
          networkCidr(cidr)
        }" of interface "${row.name}", which its link already routes`,
        "destination",
      );
    }
  }
}
