/**
 * Request and response shapes of the network routes, in zod, as
 * lib/tunnel/schemas.ts and response_schemas.ts do for the others: requests
 * are checked for types here (400), names and blocks by the service (400
 * naming the field, the canonical form in the message) and documented from
 * the same constants; responses feed the OpenAPI document only and are kept
 * equal to the service types at compile time.
 */
import { z } from "zod";
import { documented, patternOf } from "../../schema_doc.ts";
import { AVAILABLE_LIMIT_MAX, type NetworkAvailable, type NetworkView } from "./network_service.ts";
import { NETWORK_NAME, NETWORK_PREFIX_MAX, NETWORK_PREFIX_MIN } from "./network_rules.ts";

const OCTET = "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";

/** POST /networks */
export const networkCreateSchema = z.strictObject({
  name: documented(z.string(), { pattern: patternOf(NETWORK_NAME) }),
  cidr: documented(z.string(), {
    description:
      `Canonical IPv4 block (host bits zero), prefix /${NETWORK_PREFIX_MIN} to /${NETWORK_PREFIX_MAX}; must not overlap another network, an interface's subnet included`,
    pattern: `^${OCTET}(\\.${OCTET}){3}/([89]|[12][0-9]|30)$`,
    examples: ["10.20.0.0/16", "192.168.50.0/24", "172.16.0.0/12"],
  }),
});

/** GET /networks/{id}/available (query strings) */
export const availableQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(AVAILABLE_LIMIT_MAX).optional()
    .describe("Addresses per page, default 100"),
  after: documented(z.string(), {
    description: "An address inside the network; the page starts above it (a page's next_after)",
    format: "ipv4",
    // Inside the fixture interface's block of the OpenAPI fuzz test.
    examples: ["10.8.0.10", "10.8.0.200"],
  }).optional(),
});

const iso = z.string().describe("ISO 8601 time");

/** A network (NetworkView). */
export const NetworkSchema = z.object({
  id: z.string(),
  name: z.string(),
  cidr: z.string().describe("Canonical IPv4 block"),
  interface_id: z.string().nullable().describe("The interface whose subnet this is"),
  interface_name: z.string().nullable(),
  origin: z.enum(["api", "interface"]).describe(
    "interface: made with its interface and deleted with it; api: made by POST /networks",
  ),
  size: z.number().int().describe("Usable host addresses: 2^(32-prefix) - 2"),
  allocated: z.number().int().describe(
    "The interface's address and its peers' addresses, every status",
  ),
  created_at: iso,
  updated_at: iso,
});

/** GET /networks/{id}/available */
export const NetworkAvailableSchema = z.object({
  network_id: z.string(),
  cidr: z.string(),
  size: z.number().int(),
  allocated: z.number().int(),
  addresses: z.array(z.string()).describe("Unallocated host addresses, ascending"),
  next_after: z.string().nullable().describe(
    "The page's last address when more follow (pass it as after), else null",
  ),
});

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
function same<_T extends true>() {}
same<Same<z.output<typeof NetworkSchema>, NetworkView>>();
same<Same<z.output<typeof NetworkAvailableSchema>, NetworkAvailable>>();
