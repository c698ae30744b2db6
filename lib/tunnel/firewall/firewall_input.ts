/**
 * What a firewall rule must satisfy before it is stored (docs/tunnels.md,
 * "Firewall rules"). Malformed input is 400 (ValidationError); a port out of
 * 1-65535, or a port on a protocol without ports, is 422 (UnprocessableError)
 * as the spec says for "a port out of bounds".
 */
import { UnprocessableError, ValidationError } from "../../errors.ts";
import type { FirewallAction, FirewallDirection, FirewallProtocol } from "../../host/net_state.ts";
import { checkCanonicalCidr, optionalId } from "../net_input.ts";
import { PORT_MAX, PORT_MIN } from "../validate.ts";

/**
 * Rule names appear in the dashboard, audit messages and logs: no line
 * breaks or quotes, ASCII only, as peer names.
 */
export const FIREWALL_NAME = /^[A-Za-z0-9][A-Za-z0-9 ._@+-]{0,63}$/;
export const PROTOCOLS = ["tcp", "udp", "icmp", "any"] as const;
export const ACTIONS = ["accept", "drop", "reject"] as const;
export const DIRECTIONS = ["input", "forward"] as const;
/** The protocols a destination port applies to. */
export const PORT_PROTOCOLS: readonly FirewallProtocol[] = ["tcp", "udp"];

/** POST /firewall/rules */
export interface FirewallRuleCreate {
  name: string;
  protocol: FirewallProtocol;
  /** Destination port (tcp and udp only); absent or null for every port. */
  port?: number | null;
  action: FirewallAction;
  /** "input" when absent. */
  direction?: FirewallDirection;
  /** The incoming interface to match; absent or null for any. */
  interface_id?: string | null;
  /** Source block to match (canonical IPv4 CIDR); absent or null for any. */
  source?: string | null;
  /** true when absent. */
  enabled?: boolean;
}

/** A rule's fields, checked for shape and range; the interface is resolved in the transaction. */
export interface FirewallInput {
  name: string;
  protocol: FirewallProtocol;
  port: number | null;
  action: FirewallAction;
  direction: FirewallDirection;
  interfaceId: string | null;
  source: string | null;
  enabled: boolean;
}

function oneOf<T extends string>(v: unknown, list: readonly T[], field: string, what: string): T {
  if (!list.includes(v as T)) {
    throw new ValidationError(
      `${what}: ${field} ${JSON.stringify(v)} must be one of ${list.join(", ")}`,
      field,
    );
  }
  return v as T;
}

function checkPort(v: unknown, protocol: FirewallProtocol, what: string): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== "number" || !Number.isInteger(v)) {
    throw new ValidationError(`${what}: port must be an integer or null`, "port");
  }
  if (v < PORT_MIN || v > PORT_MAX) {
    throw new UnprocessableError(`${what}: port ${v} is outside ${PORT_MIN}-${PORT_MAX}`, "port");
  }
  if (!PORT_PROTOCOLS.includes(protocol)) {
    throw new UnprocessableError(
      `${what}: port ${v} needs protocol tcp or udp, not "${protocol}"`,
      "port",
    );
  }
  return v;
}

/** Shape (400) and port rules (422) of a new rule. */
export function checkFirewallInput(input: FirewallRuleCreate, what: string): FirewallInput {
  if (typeof input.name !== "string" || !FIREWALL_NAME.test(input.name)) {
    throw new ValidationError(
      `${what}: name ${
        JSON.stringify(input.name)
      } must be 1 to 64 ASCII letters, digits, spaces or ._@+- starting with a letter or digit`,
      "name",
    );
  }
  const protocol = oneOf(input.protocol, PROTOCOLS, "protocol", what);
  const action = oneOf(input.action, ACTIONS, "action", what);
  const direction = oneOf(input.direction ?? "input", DIRECTIONS, "direction", what);
  const source = input.source === undefined || input.source === null
    ? null
    : checkCanonicalCidr(input.source, "source", what).text;
  const enabled = input.enabled ?? true;
  if (typeof enabled !== "boolean") {
    throw new ValidationError(`${what}: enabled must be true or false`, "enabled");
  }
  return {
    name: input.name,
    protocol,
    port: checkPort(input.port, protocol, what),
    action,
    direction,
    interfaceId: optionalId(input.interface_id, "interface_id", what),
    source,
    enabled,
  };
}
