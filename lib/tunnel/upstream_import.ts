/**
 * Upstream import (docs/tunnels.md, "Upstream import"): a third-party
 * WireGuard configuration becomes an interface of role `upstream` with a
 * dynamic listen port and its one provider peer, written in one transaction
 * with its audit record, then applied to the host, then reconciled. Preview
 * runs the same parse and checks and writes nothing.
 */
import { HostError } from "../errors.ts";
import { keepChange } from "./history/history_write.ts";
import type { TunnelContext } from "./context.ts";
import { applyToHost } from "./host_apply.ts";
import type { InterfaceView } from "./interface_view.ts";
import { interfaceView } from "./interface_view.ts";
import type { PeerView } from "./peer_view.ts";
import type { Reconciler } from "./reconcile.ts";
import {
  checkUpstreamFits,
  planUpstream,
  previewView,
  PROVIDER_PEER,
  type UpstreamInput,
  type UpstreamPlan,
  type UpstreamPreview,
} from "./upstream_preview.ts";
import type { IgnoredKey } from "./upstream_values.ts";

export type { UpstreamInput, UpstreamPreview } from "./upstream_preview.ts";

/** What import answers: the stored interface and peer, and how the host took them. */
export interface UpstreamImport {
  interface: InterfaceView;
  peer: PeerView;
  ignored: IgnoredKey[];
  /** The reconciliation run after the import; `verified` false with the reason when it failed. */
  reconcile: { verified: boolean; detail: string };
}

export class UpstreamService {
  constructor(
    private readonly ctx: TunnelContext,
    private readonly reconciler: Reconciler,
    private readonly peerView: (id: string) => Promise<PeerView>,
  ) {}

  /** What import would create, secrets redacted; changes nothing. */
  async preview(input: UpstreamInput): Promise<UpstreamPreview> {
    const what = "Cannot import the upstream configuration";
    const plan = await planUpstream(this.ctx, input, what);
    await checkUpstreamFits(this.ctx, plan, `Cannot import upstream "${plan.name}"`);
    return previewView(plan);
  }

  /** Stores the interface and its provider peer, syncs the device and reconciles. */
  async import(input: UpstreamInput, actor: string): Promise<UpstreamImport> {
    const plan = await planUpstream(this.ctx, input, "Cannot import the upstream configuration");
    const what = `Cannot import upstream "${plan.name}"`;
    const id = crypto.randomUUID();
    const peerId = crypto.randomUUID();
    const { transactor, events } = this.ctx;
    await transactor.tx(async () => {
      await checkUpstreamFits(this.ctx, plan, what);
      await this.#insert(plan, id, peerId, actor);
      transactor.afterCommit(() =>
        events.emit("InterfaceChanged", { id, action: "created", name: plan.name })
      );
    });
    await applyToHost(
      this.ctx,
      `Upstream interface "${plan.name}"`,
      () => this.ctx.host.syncInterface(id),
    );
    const reconcile = await this.#reconcile(actor);
    return {
      interface: interfaceView((await this.ctx.interfaceRepo.getCounted(id))!),
      peer: await this.peerView(peerId),
      ignored: plan.config.ignored,
      reconcile,
    };
  }

  async #insert(plan: UpstreamPlan, id: string, peerId: string, actor: string): Promise<void> {
    const { interfaceRepo, peerRepo, audit, clock } = this.ctx;
    const { peer } = plan.config;
    const now = clock.now();
    await interfaceRepo.insert({
      id,
      name: plan.name,
      address_v4: plan.addressV4,
      listen_port: null,
      mtu: plan.mtu,
      role: "upstream",
      enabled: 1,
      private_key: plan.config.privateKey,
      public_key: plan.publicKey,
      created_at: now,
      updated_at: now,
    });
    await peerRepo.insert({
      id: peerId,
      interface_id: id,
      name: PROVIDER_PEER,
      public_key: peer.publicKey,
      private_key: null,
      preshared_key: peer.presharedKey,
      address: plan.peerAddress,
      allowed_ips: peer.allowedIps.join(", "),
      dns: "",
      keepalive: peer.keepalive,
      mtu: null,
      profile: "full-tunnel",
      status: "enabled",
      endpoint: peer.endpoint,
      created_at: now,
      updated_at: now,
    });
    await keepChange(this.ctx, "peer", peerId, actor, "Created (upstream import)", null);
    await audit.add({
      actor,
      event_type: "interface.imported",
      message: `Imported upstream interface "${plan.name}" (${plan.addressV4}, mtu ${plan.mtu}) ` +
        `with provider peer at ${peer.endpoint}; ${plan.config.ignored.length} keys ignored`,
      resource_type: "interface",
      resource_id: id,
    });
  }

  /** The reconciliation the spec triggers after an import; a failure is reported, not thrown. */
  async #reconcile(actor: string): Promise<UpstreamImport["reconcile"]> {
    try {
      const r = await this.reconciler.apply(actor);
      return { verified: r.verified, detail: r.detail };
    } catch (err) {
      if (!(err instanceof HostError)) throw err;
      return { verified: false, detail: err.message };
    }
  }
}
