/**
 * Response shapes of the tunnel routes, in zod. They feed the OpenAPI
 * document only: the router never validates responses (a 10,000-peer listing
 * must not pay for per-row validation). The type checks at the end keep each
 * schema equal to the service type it documents, so the two cannot drift.
 */
import { z } from "zod";
import type { ClientProfile } from "./client_profiles.ts";
import type { InterfaceStatus, InterfaceView, PeerMetric } from "./interface_service.ts";
import type { PeerTelemetry, PeerView, PeerWithTelemetry } from "./peer_service.ts";
import type { ReconcileItem, ReconcilePlan, ReconcileResult } from "./reconcile.ts";
import { pageResponseFields } from "../paging.ts";
import { CheckSchema } from "../system/diagnostics_schema.ts";
import type { DiagnosticCheck, TunnelDiagnostics } from "./tunnels.ts";

const iso = z.string().describe("ISO 8601 time");

/** An interface (InterfaceView); the private key never appears. */
export const InterfaceSchema = z.object({
  id: z.string(),
  name: z.string(),
  address_v4: z.string().describe("Interface address with prefix; the block is the peer pool"),
  listen_port: z.number().int().nullable(),
  mtu: z.number().int(),
  role: z.enum(["overlay", "upstream"]),
  enabled: z.boolean(),
  public_key: z.string(),
  peer_count: z.number().int(),
  dns_zone: z.string().nullable().describe("Zone the enabled peers are published in"),
  created_at: iso,
  updated_at: iso,
});

export const InterfaceListSchema = z.object({
  interfaces: z.array(InterfaceSchema),
  ...pageResponseFields,
});

const PeerMetricSchema = z.object({
  id: z.string().nullable(),
  name: z.string().nullable(),
  public_key: z.string(),
  endpoint: z.string().nullable(),
  latest_handshake: iso.nullable(),
  rx_bytes: z.number().int(),
  tx_bytes: z.number().int(),
  connected: z.boolean(),
});

/** GET /interfaces/{id}/status */
export const InterfaceStatusSchema = z.object({
  id: z.string(),
  name: z.string(),
  driver: z.enum(["linux", "none"]),
  host_active: z.boolean(),
  link: z.enum(["up", "down", "missing", "unknown"]),
  enabled: z.boolean(),
  listen_port: z.number().int().nullable(),
  mtu: z.number().int().nullable(),
  addresses_v4: z.array(z.string()),
  rx_bytes: z.number().int().nullable(),
  tx_bytes: z.number().int().nullable(),
  peers: z.object({
    stored: z.number().int(),
    enabled: z.number().int(),
    on_host: z.number().int(),
    connected: z.number().int(),
  }),
  peer_metrics: z.array(PeerMetricSchema),
  read_at: iso.nullable(),
});

/** A peer (PeerView): no private or preshared key. */
export const PeerSchema = z.object({
  id: z.string(),
  interface_id: z.string(),
  interface_name: z.string(),
  name: z.string(),
  public_key: z.string(),
  address: z.string().describe("Tunnel address without prefix; routed as /32 on the server"),
  allowed_ips: z.string().describe("Effective client-side AllowedIPs"),
  allowed_ips_custom: z.boolean(),
  dns: z.string(),
  keepalive: z.number().int().nullable(),
  mtu: z.number().int().nullable(),
  profile: z.string(),
  status: z.enum(["enabled", "disabled", "revoked"]),
  has_private_key: z.boolean(),
  has_preshared_key: z.boolean(),
  created_at: iso,
  updated_at: iso,
});

const PeerTelemetrySchema = z.object({
  on_host: z.boolean(),
  endpoint: z.string().nullable(),
  latest_handshake: iso.nullable(),
  rx_bytes: z.number().int(),
  tx_bytes: z.number().int(),
  connected: z.boolean().describe("Handshake within the last 180 s"),
});

/** A peer's expiry, quota and usage (PeerLimitsBrief, docs/peer_lifecycle.md). */
const PeerLimitsBriefSchema = z.object({
  expires_at: iso.nullable(),
  days_left: z.number().int().nullable().describe("Whole days until expiry, rounded up"),
  quota_bytes: z.number().int().nullable(),
  used_bytes: z.number().int().describe("Received plus sent in the current period"),
  period_end: iso,
  disabled_reason: z.enum(["quota_reached", "expired"]).nullable().describe(
    "Why Palisade disabled the peer, while it stays disabled for it",
  ),
});

/** A peer with live telemetry (null when the host layer is off) and its limits. */
export const PeerWithTelemetrySchema = PeerSchema.extend({
  telemetry: PeerTelemetrySchema.nullable(),
  limits: PeerLimitsBriefSchema.nullable().describe(
    "Expiry, quota and usage; null: no limits (details: /peers/{id}/limits)",
  ),
});

/** GET /peers and GET /interfaces/{id}/peers */
export const PeerPageSchema = z.object({
  peers: z.array(PeerWithTelemetrySchema),
  total: z.number().int().describe("Peers matching the filters, ignoring limit and offset"),
  limit: z.number().int().nullable().describe("null: no limit was given, every match is listed"),
  offset: z.number().int(),
  next_cursor: pageResponseFields.next_cursor,
});

/** GET /peers/{id}/qr */
export const PeerQrSchema = z.object({
  format: z.enum(["svg", "png"]),
  svg: z.string(),
  data_url: z.string().describe("data:image/png;base64,…"),
  png_base64: z.string(),
});

export const ClientProfileSchema = z.object({
  id: z.string(),
  device: z.enum(["desktop", "mobile", "router"]),
  connection: z.enum(["ipv4", "ipv6", "pppoe", "cellular", "restrictive-nat"]),
  mtu: z.number().int(),
  keepalive: z.number().int().describe("Seconds; 0 is off"),
  description: z.string(),
  rules: z.array(z.string()),
});

export const ClientProfileListSchema = z.object({ profiles: z.array(ClientProfileSchema) });

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

const ReconcileItemSchema = z.object({
  kind: z.enum([
    "interface_missing",
    "public_key",
    "listen_port",
    "mtu",
    "address",
    "link_state",
    "peer_missing",
    "peer_unexpected",
    "peer_field",
    "route_missing",
    "route_unexpected",
    "route_changed",
    "firewall_table_missing",
    "firewall_rule_missing",
    "firewall_rule_unexpected",
    "firewall_rule_changed",
    "firewall_order",
    "firewall_chain",
  ]),
  interface: z.string().nullable().describe(
    "null for a firewall item of no interface or a stray route",
  ),
  interface_id: z.string().nullable(),
  peer_id: z.string().nullable(),
  peer_name: z.string().nullable(),
  public_key: z.string().nullable(),
  field: z.string().nullable(),
  route_id: z.string().nullable().describe("The stored route of a route item"),
  rule_id: z.string().nullable().describe(
    "The stored rule of a firewall item; null for the table, the order or a rule Palisade did not write",
  ),
  desired: scalar.describe('Secrets appear as "[redacted]"'),
  live: scalar,
  action: z.string(),
});

/** GET /reconcile/plan */
export const ReconcilePlanSchema = z.object({
  driver: z.enum(["linux", "none"]),
  host_active: z.boolean(),
  in_sync: z.boolean().nullable(),
  generated_at: iso,
  items: z.array(ReconcileItemSchema),
  detail: z.string(),
});

/** POST /reconcile/apply */
export const ReconcileResultSchema = z.object({
  driver: z.enum(["linux", "none"]),
  host_active: z.boolean(),
  applied: z.array(ReconcileItemSchema),
  remaining: z.array(ReconcileItemSchema),
  verified: z.boolean(),
  generated_at: iso,
  detail: z.string(),
});

const checkStatus = z.enum(["ok", "warn", "fail", "off"]);

export const DiagnosticCheckSchema = CheckSchema;

/** The tunnels subsystem of GET /diagnostics/{subsystem}. */
export const TunnelDiagnosticsSchema = z.object({
  subsystem: z.literal("tunnels"),
  status: checkStatus,
  host: z.object({
    driver: z.enum(["linux", "none"]),
    active: z.boolean(),
    netns: z.string().nullable(),
    wireguard: z.enum(["kernel", "userspace"]).nullable(),
    tools: z.record(z.string(), z.boolean()),
    detail: z.string(),
  }),
  checks: z.array(DiagnosticCheckSchema),
  last_pass: z.object({
    at: iso,
    handshakes: z.number().int(),
    drift: z.array(ReconcileItemSchema).nullable(),
    error: z.string().nullable(),
  }).nullable(),
});

// Compile-time equality of each schema with the type the service returns.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
function same<_T extends true>() {}
same<Same<z.output<typeof InterfaceSchema>, InterfaceView>>();
same<Same<z.output<typeof InterfaceStatusSchema>, InterfaceStatus>>();
same<Same<z.output<typeof PeerMetricSchema>, PeerMetric>>();
same<Same<z.output<typeof PeerSchema>, PeerView>>();
same<Same<z.output<typeof PeerTelemetrySchema>, PeerTelemetry>>();
same<Same<z.output<typeof PeerWithTelemetrySchema>, PeerWithTelemetry>>();
same<Same<z.output<typeof ClientProfileSchema>, ClientProfile>>();
same<Same<z.output<typeof ReconcileItemSchema>, ReconcileItem>>();
same<Same<z.output<typeof ReconcilePlanSchema>, ReconcilePlan>>();
same<Same<z.output<typeof ReconcileResultSchema>, ReconcileResult>>();
same<Same<z.output<typeof DiagnosticCheckSchema>, DiagnosticCheck>>();
same<Same<z.output<typeof TunnelDiagnosticsSchema>, TunnelDiagnostics>>();
