/**
 * A peer's client configuration as a wg-quick file and as QR images. Every
 * export is audited: the file holds the peer's private key.
 */
import { ConflictError, UnprocessableError, ValidationError } from "../errors.ts";
import { resolveClientProfile } from "./client_profiles.ts";
import { clientConfig, resolveEndpoint } from "./client_config.ts";
import type { ServerEndpointSource, TunnelContext } from "./context.ts";
import { qr, type QrImages } from "./qr.ts";
import { requireInterface, requirePeer } from "./require_row.ts";

/** The image formats of `GET /peers/{id}/qr` (`qr_format`). */
export const QR_FORMATS = ["svg", "png"] as const;
export type QrFormat = (typeof QR_FORMATS)[number];

export interface ConfigOptions {
  device?: string;
  connection?: string;
  endpoint?: string;
}

export interface ClientConfigFile {
  /** A wg-quick friendly name: at most 15 characters plus ".conf". */
  filename: string;
  content: string;
}

export interface PeerQr extends QrImages {
  format: QrFormat;
}

export class PeerConfig {
  constructor(
    private readonly ctx: Pick<TunnelContext, "peerRepo" | "interfaceRepo" | "audit">,
    private readonly serverEndpoint: ServerEndpointSource,
  ) {}

  /**
   * The client's wg-quick file. ValidationError for a bad query value,
   * UnprocessableError when there is no endpoint or no stored private key,
   * ConflictError for a revoked peer. Audited: it discloses the private key.
   */
  async config(id: string, opts: ConfigOptions, actor: string): Promise<ClientConfigFile> {
    const p = await requirePeer(this.ctx.peerRepo, id);
    const iface = await requireInterface(this.ctx.interfaceRepo, p.interface_id);
    const what = `Cannot render the configuration of peer "${p.name}"`;
    if (p.status === "revoked") throw new ConflictError(`${what}: it is revoked`);
    if (!p.private_key) {
      throw new UnprocessableError(
        `${what}: its private key is held by the client, not by Palisade`,
      );
    }
    const transport = opts.device !== undefined || opts.connection !== undefined
      ? resolveClientProfile(opts.device, opts.connection)
      : null;
    const endpoint = resolveEndpoint(
      opts.endpoint,
      await this.serverEndpoint(),
      iface.listen_port,
      what,
    );
    const content = clientConfig({
      peer: { ...p, private_key: p.private_key },
      iface,
      endpoint,
      transport,
    });
    await this.ctx.audit.add({
      actor,
      event_type: "peer.config_exported",
      message: `Exported the client configuration of peer "${p.name}" on interface "${iface.name}"`,
      resource_type: "peer",
      resource_id: id,
    });
    const base = p.name.replace(/[^a-zA-Z0-9_=+.-]/g, "_").slice(0, 15) || "peer";
    return { filename: `${base}.conf`, content };
  }

  /** QR images of the client configuration (same rules and errors as `config`). */
  async qr(
    id: string,
    opts: ConfigOptions & { qr_format?: string },
    actor: string,
  ): Promise<PeerQr> {
    const format = (opts.qr_format ?? "svg") as QrFormat;
    if (!QR_FORMATS.includes(format)) {
      throw new ValidationError(
        `Unknown qr_format ${JSON.stringify(format)}: use svg or png`,
        "qr_format",
      );
    }
    const { content } = await this.config(id, opts, actor);
    return { format, ...(await qr(content)) };
  }
}
