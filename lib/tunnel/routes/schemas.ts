/**
 * Request and response shapes of the route routes, in zod. Requests check
 * types only (400); the service checks the rest (a non-canonical
 * destination 400, a metric out of range or an unreachable gateway 422),
 * and those rules are documented on the schemas for the OpenAPI document.
 * The examples are written for an interface on 10.8.0.1/24.
 */
import { z } from "zod";
import { documented } from "../../schema_doc.ts";
import type { RouteView } from "./route_service.ts";
import { METRIC_MAX, METRIC_MIN } from "./route_input.ts";

const OCTET = "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";
/** An IPv4 CIDR; canonical (host bits zero) is checked by the service. */
export const IPV4_CIDR_PATTERN = `^${OCTET}(\\.${OCTET}){3}/([0-9]|[12][0-9]|3[0-2])$`;

const destination = documented(z.string(), {
  description:
    "Canonical IPv4 block (host bits zero, else 400 giving the canonical form); 0.0.0.0/0 is the default route. It may not lie inside a managed interface's block (422)",
  pattern: IPV4_CIDR_PATTERN,
  examples: ["10.50.0.0/24", "192.168.77.0/24", "0.0.0.0/0"],
});
const gateway = documented(z.string(), {
  description:
    "Next hop: another host of a managed interface's block (422 otherwise: not reachable through any managed interface, or the interface's own address)",
  format: "ipv4",
  examples: ["10.8.0.2", "10.8.0.254"],
});
const metric = documented(z.int(), {
  description: "Route priority; lower wins. 0 when absent; outside the bounds 422",
  minimum: METRIC_MIN,
  maximum: METRIC_MAX,
});
const interfaceId = documented(z.string().nullable(), {
  description:
    "The managed interface to route through (unknown: 422); absent or null: the one whose block holds the gateway",
  examples: [null],
});

/** POST /routes */
export const routeCreateSchema = z.strictObject({
  destination,
  gateway,
  metric: metric.optional(),
  interface_id: interfaceId.optional(),
});

/** A route (RouteView). */
export const RouteSchema = z.object({
  id: z.string(),
  destination: z.string(),
  gateway: z.string(),
  metric: z.number().int(),
  interface_id: z.string(),
  interface_name: z.string().describe("The device the route goes through"),
  active: z.boolean().describe("On the host: false while the interface is disabled"),
  created_at: z.string().describe("ISO 8601 time"),
});

/** GET /routes */
export const RouteListSchema = z.object({ routes: z.array(RouteSchema) });

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
function same<_T extends true>() {}
same<Same<z.output<typeof RouteSchema>, RouteView>>();
