/**
 * What importing an upstream configuration would create (docs/tunnels.md,
 * "Upstream import"): the parsed configuration, the interface's name and
 * derived public key, and the checks against what is stored. The preview
 * shows it with every secret replaced by "[redacted]"; the import writes it.
 */
import { ConflictError, DomainError, ValidationError } from "../errors.ts";
import type { TunnelContext } from "./context.ts";
import { checkInterfaceUnique } from "./interface_checks.ts";
import { DEFAULT_MTU } from "./interface_service.ts";
import { networkCidr, parseCidr } from "./ipv4.ts";
import { toBase64 } from "./keys.ts";
import { overlapError, overlapping } from "./networks/network_rules.ts";
import { CONFIG_MAX } from "./upstream_parse.ts";
import { type IgnoredKey, parseUpstreamConfig, type UpstreamConfig } from "./upstream_values.ts";
import { checkInterfaceName } from "./validate.ts";

export const REDACTED = "[redacted]";
/** The name of the provider peer on its upstream interface. */
export const PROVIDER_PEER = "provider";
/** The names an upstream takes when the request has none: the first free of these. */
const DERIVED_NAME = "upstream";

/** POST /interfaces/upstreams/preview and /import. */
export interface UpstreamInput {
  /** Interface name; derived ("upstream", "upstream-1", …) when absent. */
  name?: string;
  /** The configuration text in wg-quick format. */
  config: string;
}

/** A checked import, before it is stored. Holds secrets: never returned as is. */
export interface UpstreamPlan {
  name: string;
  /** The first IPv4 Address of the configuration: the interface's address. */
  addressV4: string;
  mtu: number;
  publicKey: string;
  /** The provider peer's stored address: the first IPv4 AllowedIPs block's network address. */
  peerAddress: string;
  config: UpstreamConfig;
}

/** The preview's answer: what import would create, secrets redacted. */
export interface UpstreamPreview {
  interface: {
    name: string;
    role: "upstream";
    address_v4: string;
    addresses_v4: string[];
    addresses_v6: string[];
    listen_port: null;
    mtu: number;
    dns: string[];
    public_key: string;
    private_key: string;
  };
  peer: {
    name: string;
    public_key: string;
    preshared_key: string | null;
    endpoint: string;
    allowed_ips: string[];
    keepalive: number | null;
  };
  ignored: IgnoredKey[];
}

/** PKCS#8 wrapping of a raw X25519 private key (RFC 8410), in hex. */
const PKCS8_X25519 = "302e020100300506032b656e04220420";

/** The public key of a WireGuard private key (the base64 of 32 bytes, checked by the parser). */
export async function publicKeyOf(privateKey: string): Promise<string> {
  const raw = Uint8Array.from(atob(privateKey), (c) => c.charCodeAt(0));
  const head = PKCS8_X25519.match(/../g)!.map((h) => parseInt(h, 16));
  const der = new Uint8Array([...head, ...raw]);
  const key = await crypto.subtle.importKey("pkcs8", der, { name: "X25519" }, true, [
    "deriveBits",
  ]);
  const jwk = await crypto.subtle.exportKey("jwk", key);
  const b64 = jwk.x!.replaceAll("-", "+").replaceAll("_", "/");
  return toBase64(Uint8Array.from(atob(b64 + "="), (c) => c.charCodeAt(0)));
}

async function nameFor(
  ctx: Pick<TunnelContext, "interfaceRepo">,
  name: unknown,
  what: string,
): Promise<string> {
  if (name !== undefined) return checkInterfaceName(name, what);
  const taken = new Set((await ctx.interfaceRepo.all()).map((r) => r.name));
  let out = DERIVED_NAME;
  for (let i = 1; taken.has(out); i++) out = `${DERIVED_NAME}-${i}`;
  return out;
}

/** Parses and checks `input`; 400 or 422 on `config`, 400 on `name`. Reads the store only for a name. */
export async function planUpstream(
  ctx: Pick<TunnelContext, "interfaceRepo">,
  input: UpstreamInput,
  what: string,
): Promise<UpstreamPlan> {
  if (typeof input.config !== "string" || input.config.length > CONFIG_MAX) {
    throw new ValidationError(
      `${what}: config must be text of at most ${CONFIG_MAX} characters`,
      "config",
    );
  }
  let config: UpstreamConfig;
  try {
    config = parseUpstreamConfig(input.config);
  } catch (err) {
    throw err instanceof DomainError ? err.withMessage(`${what}: ${err.message}`) : err;
  }
  const name = await nameFor(ctx, input.name, what);
  const allowed = config.peer.allowedIps.find((a) => !a.includes(":"))!;
  return {
    name,
    addressV4: config.addressesV4[0],
    mtu: config.mtu ?? DEFAULT_MTU,
    publicKey: await publicKeyOf(config.privateKey),
    peerAddress: allowed.split("/")[0],
    config,
  };
}

/**
 * ConflictError (409) when the plan collides with what is stored: the name,
 * the address (or a block overlapping an interface's or a network's), or a
 * key already in use. Inside the caller's transaction for an import.
 */
export async function checkUpstreamFits(
  ctx: TunnelContext,
  plan: UpstreamPlan,
  what: string,
): Promise<void> {
  await checkInterfaceUnique(ctx.interfaceRepo, what, null, plan.name, plan.addressV4, null);
  const cidr = parseCidr(plan.addressV4)!;
  const net = overlapping(await ctx.networkRepo.all(), cidr);
  if (net) throw overlapError(what, "address_v4", networkCidr(cidr), net);
  if ((await ctx.interfaceRepo.all()).some((r) => r.public_key === plan.publicKey)) {
    throw new ConflictError(`${what}: its PrivateKey is already an interface's key`, {
      field: "config",
      code: "duplicate_public_key",
    });
  }
  if (await ctx.peerRepo.byPublicKey(plan.config.peer.publicKey)) {
    throw new ConflictError(`${what}: the [Peer] PublicKey is already used by another peer`, {
      field: "config",
      code: "duplicate_public_key",
    });
  }
}

/** The preview of a plan: secrets replaced by "[redacted]". */
export function previewView(plan: UpstreamPlan): UpstreamPreview {
  const { config: c } = plan;
  return {
    interface: {
      name: plan.name,
      role: "upstream",
      address_v4: plan.addressV4,
      addresses_v4: c.addressesV4,
      addresses_v6: c.addressesV6,
      listen_port: null,
      mtu: plan.mtu,
      dns: c.dns,
      public_key: plan.publicKey,
      private_key: REDACTED,
    },
    peer: {
      name: PROVIDER_PEER,
      public_key: c.peer.publicKey,
      preshared_key: c.peer.presharedKey === null ? null : REDACTED,
      endpoint: c.peer.endpoint,
      allowed_ips: c.peer.allowedIps,
      keepalive: c.peer.keepalive,
    },
    ignored: c.ignored,
  };
}
