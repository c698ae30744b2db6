/**
 * Request and response shapes of the firewall rule routes, in zod. Requests
 * check types and the fixed lists (400); the service checks the port (422
 * outside 1-65535, or given for icmp or any), an unknown interface (422) and
 * a non-canonical source (400). The port rule is documented as the body's
 * `oneOf`: a port only with tcp or udp.
 */
import { z } from "zod";
import { documented, patternOf } from "../../schema_doc.ts";
import { IPV4_CIDR_PATTERN } from "../routes/schemas.ts";
import { PORT_MAX, PORT_MIN } from "../validate.ts";
import type { FirewallRuleView } from "./firewall_service.ts";
import { ACTIONS, DIRECTIONS, FIREWALL_NAME, PORT_PROTOCOLS, PROTOCOLS } from "./firewall_input.ts";

const name = documented(z.string(), {
  description: "Unique (409); 1-64 ASCII letters, digits, spaces or ._@+-",
  pattern: patternOf(FIREWALL_NAME),
});
const port = documented(z.int(), {
  description: "Destination port, tcp and udp only; absent or null: every port",
  minimum: PORT_MIN,
  maximum: PORT_MAX,
});
const interfaceId = documented(z.string().nullable(), {
  description: "The incoming interface to match (unknown: 422); absent or null: any",
  examples: [null],
});
const source = documented(z.string().nullable(), {
  description: "Source block to match, canonical IPv4 CIDR (400 otherwise); absent or null: any",
  pattern: IPV4_CIDR_PATTERN,
  examples: ["192.168.1.0/24", "10.8.0.0/24", "0.0.0.0/0", null],
});

/** POST /firewall/rules */
export const firewallRuleCreateSchema = documented(
  z.strictObject({
    name,
    protocol: z.enum(PROTOCOLS),
    port: port.nullable().optional(),
    action: z.enum(ACTIONS).describe("reject answers tcp with a reset, others with ICMP"),
    direction: z.enum(DIRECTIONS).describe("input (to this host, default) or forward (through it)")
      .optional(),
    interface_id: interfaceId.optional(),
    source: source.optional(),
    enabled: z.boolean().describe("true when absent").optional(),
  }),
  {
    oneOf: [
      { properties: { protocol: { enum: PORT_PROTOCOLS } } },
      {
        properties: {
          protocol: { enum: PROTOCOLS.filter((p) => !PORT_PROTOCOLS.includes(p)) },
          port: { type: "null" },
        },
      },
    ],
  },
);

/** A firewall rule (FirewallRuleView). */
export const FirewallRuleSchema = z.object({
  id: z.string(),
  name: z.string(),
  protocol: z.enum(PROTOCOLS),
  port: z.number().int().nullable(),
  action: z.enum(ACTIONS),
  direction: z.enum(DIRECTIONS),
  interface_id: z.string().nullable(),
  interface_name: z.string().nullable(),
  source: z.string().nullable(),
  enabled: z.boolean(),
  position: z.number().int().describe("Evaluation order, ascending (creation order)"),
  created_at: z.string().describe("ISO 8601 time"),
  updated_at: z.string().describe("ISO 8601 time"),
});

/** GET /firewall/rules */
export const FirewallRuleListSchema = z.object({ rules: z.array(FirewallRuleSchema) });

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
function same<_T extends true>() {}
same<Same<z.output<typeof FirewallRuleSchema>, FirewallRuleView>>();
