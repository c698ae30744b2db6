/**
 * Request shapes for the tunnel routes, in zod. They check types only
 * (failure → 400); ranges and semantics are checked by the services, which
 * answer 422 for a port or MTU out of bounds as the spec's error table says.
 * Those rules are documented here too (`documented`, from the constants
 * the services check against), so the OpenAPI document states them while the
 * answers stay the services'. Unknown fields are rejected so a typo does not
 * silently do nothing.
 */
import { z } from "zod";
import { pageQueryFields } from "../paging.ts";
import { documented, patternOf } from "../schema_doc.ts";
import { CONNECTIONS, DEVICES } from "./client_profiles.ts";
import { WIREGUARD_KEY } from "./keys.ts";
import { QR_FORMATS } from "./peer_config.ts";
import {
  INTERFACE_NAME,
  KEEPALIVE_MAX,
  MTU_MAX,
  MTU_MIN,
  PEER_NAME,
  PORT_MAX,
  PORT_MIN,
} from "./validate.ts";

const routingProfile = z.enum(["full-tunnel", "split-tunnel"]);

const OCTET = "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";
const IPV4 = `${OCTET}(\\.${OCTET}){3}`;

const interfaceName = documented(z.string(), { pattern: patternOf(INTERFACE_NAME) });
const interfaceAddress = documented(z.string(), {
  description:
    "IPv4 address with prefix (/30 or larger); the host part is the interface's address, the block is the peer pool",
  pattern: `^${IPV4}/([0-9]|[12][0-9]|30)$`,
  examples: ["10.9.0.1/24", "172.16.40.1/24"],
});
const listenPort = documented(z.int(), { minimum: PORT_MIN, maximum: PORT_MAX });
const mtu = documented(z.int(), { minimum: MTU_MIN, maximum: MTU_MAX });
const keepalive = documented(z.int(), {
  description: "Persistent keepalive in seconds; 0 is off",
  minimum: 0,
  maximum: KEEPALIVE_MAX,
});
const peerName = documented(z.string(), { pattern: patternOf(PEER_NAME) });
const peerAddress = documented(z.string(), {
  description: "A host address of the interface's block; allocated when left out",
  format: "ipv4",
  examples: ["10.8.0.10", "10.8.0.200"],
});
const publicKey = documented(z.string(), {
  description: "The client's WireGuard public key (base64 of 32 bytes); generated when left out",
  pattern: patternOf(WIREGUARD_KEY),
});
const allowedIps = documented(z.string(), {
  description: "Comma-separated CIDRs the client routes through the tunnel",
  examples: ["0.0.0.0/0", "10.8.0.0/24, 192.168.10.0/24"],
});
const dns = documented(z.string(), {
  description: "Comma-separated DNS server addresses and search domains",
  examples: ["1.1.1.1, 9.9.9.9", "10.8.0.1, corp.example.com"],
});

/** POST /interfaces */
export const interfaceCreateSchema = z.strictObject({
  name: interfaceName,
  address_v4: interfaceAddress,
  listen_port: listenPort.optional(),
  mtu: mtu.optional(),
  dns_zone: z.string().max(253).nullable().optional().describe(
    "Palisade zone the enabled peers are published in as <peer>.<zone> A records; null: none (Palisade extension)",
  ),
});

/** PUT /interfaces/{id} */
export const interfaceUpdateSchema = interfaceCreateSchema.partial();

/** POST /interfaces/{id}/peers */
export const peerCreateSchema = z.strictObject({
  name: peerName,
  profile: routingProfile.optional(),
  mtu: mtu.nullable().optional(),
  address: peerAddress.optional(),
  public_key: publicKey.optional(),
  preshared_key: z.boolean().optional(),
  allowed_ips: allowedIps.nullable().optional(),
  dns: dns.optional(),
  keepalive: keepalive.nullable().optional(),
  enabled: z.boolean().optional(),
});

/** PUT /peers/{id} */
export const peerUpdateSchema = z.strictObject({
  name: peerName.optional(),
  profile: routingProfile.optional(),
  mtu: mtu.nullable().optional(),
  address: peerAddress.optional(),
  preshared_key: z.boolean().optional(),
  allowed_ips: allowedIps.nullable().optional(),
  dns: dns.optional(),
  keepalive: keepalive.nullable().optional(),
});

/**
 * GET /interfaces/{id}/peers (query strings). Without `limit` every matching
 * peer is returned: the spec's listing is "all peers across interfaces". The
 * paging fields are the shared ones (docs/api.md, "Pagination").
 */
export const peerListQuerySchema = z.object({
  status: z.enum(["enabled", "disabled", "revoked"]).optional(),
  /** Case-insensitive substring of the peer name. */
  search: z.string().max(64).optional(),
  ...pageQueryFields,
});

/** GET /peers: the same, plus a filter by interface. */
export const peersQuerySchema = peerListQuerySchema.extend({
  interface_id: z.string().max(64).optional(),
});

const device = documented(z.string(), { enum: DEVICES });
const connection = documented(z.string(), { enum: CONNECTIONS });

/** GET /peers/{id}/config */
export const configQuerySchema = z.object({
  device: device.optional(),
  connection: connection.optional(),
  endpoint: documented(z.string(), {
    description:
      "host, host:port or [IPv6]:port clients dial; default: the wireguard.server_* settings",
    examples: ["vpn.example.com:51820", "192.0.2.1", "[2001:db8::1]:51820"],
  }).optional(),
});

/** GET /peers/{id}/qr */
export const qrQuerySchema = configQuerySchema.extend({
  qr_format: documented(z.string(), { enum: QR_FORMATS }).optional(),
});

/** GET /client-profiles/resolve */
export const profileQuerySchema = z.object({
  device: device.optional(),
  connection: connection.optional(),
});
