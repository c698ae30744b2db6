/**
 * Request shapes for the tunnel routes, in zod. They check types only
 * (failure → 400); ranges and semantics are checked by the services, which
 * answer 422 for a port or MTU out of bounds as the spec's error table says.
 * Unknown fields are rejected so a typo does not silently do nothing.
 */
import { z } from "zod";

const routingProfile = z.enum(["full-tunnel", "split-tunnel"]);

/** POST /interfaces */
export const interfaceCreateSchema = z.strictObject({
  name: z.string(),
  address_v4: z.string(),
  listen_port: z.int().optional(),
  mtu: z.int().optional(),
});

/** PUT /interfaces/{id} */
export const interfaceUpdateSchema = interfaceCreateSchema.partial();

/** POST /interfaces/{id}/peers */
export const peerCreateSchema = z.strictObject({
  name: z.string(),
  profile: routingProfile.optional(),
  mtu: z.int().nullable().optional(),
  address: z.string().optional(),
  public_key: z.string().optional(),
  preshared_key: z.boolean().optional(),
  allowed_ips: z.string().nullable().optional(),
  dns: z.string().optional(),
  keepalive: z.int().nullable().optional(),
  enabled: z.boolean().optional(),
});

/** PUT /peers/{id} */
export const peerUpdateSchema = z.strictObject({
  name: z.string().optional(),
  profile: routingProfile.optional(),
  mtu: z.int().nullable().optional(),
  address: z.string().optional(),
  preshared_key: z.boolean().optional(),
  allowed_ips: z.string().nullable().optional(),
  dns: z.string().optional(),
  keepalive: z.int().nullable().optional(),
});

/**
 * GET /interfaces/{id}/peers (query strings). Without `limit` every matching
 * peer is returned: the spec's listing is "all peers across interfaces".
 */
export const peerListQuerySchema = z.object({
  status: z.enum(["enabled", "disabled", "revoked"]).optional(),
  /** Case-insensitive substring of the peer name. */
  search: z.string().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(100_000).optional(),
  offset: z.coerce.number().int().min(0).optional(),
});

/** GET /peers: the same, plus a filter by interface. */
export const peersQuerySchema = peerListQuerySchema.extend({
  interface_id: z.string().max(64).optional(),
});

/** GET /peers/{id}/config */
export const configQuerySchema = z.object({
  device: z.string().optional(),
  connection: z.string().optional(),
  endpoint: z.string().optional(),
});

/** GET /peers/{id}/qr */
export const qrQuerySchema = configQuerySchema.extend({ qr_format: z.string().optional() });

/** GET /client-profiles/resolve */
export const profileQuerySchema = z.object({
  device: z.string().optional(),
  connection: z.string().optional(),
});
