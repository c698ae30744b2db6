/**
 * Reconciliation between the store (desired) and the host (live). `plan()`
 * only reads; `apply()` converges each drifting interface with the driver's
 * diff-based sync (so unchanged peers keep their sessions and counters), then
 * reads again to verify. Only interfaces Palisade stores are compared:
 * WireGuard devices it does not manage are left alone. Routes and firewall
 * rules (net_reconcile.ts) are compared within Palisade's route protocol and
 * nftables table only, and put back as a whole set after the interfaces.
 */
import { isoTime } from "../clock.ts";
import { HostError } from "../errors.ts";
import { diffInterface, type DriftKind } from "../host/diff.ts";
import type { LiveState } from "../host/driver.ts";
import type { TunnelContext } from "./context.ts";
import { desiredState } from "./desired_state.ts";
import type { FirewallDriftKind, RouteDriftKind } from "../host/net_diff.ts";
import {
  applyNet,
  isFirewallItem,
  isRouteItem,
  netItems,
  type NetLive,
  readNet,
  restoredIds,
} from "./net_reconcile.ts";

export interface ReconcileItem {
  kind: DriftKind | RouteDriftKind | FirewallDriftKind;
  /** The interface concerned; null for a firewall item of no interface or a stray route. */
  interface: string | null;
  interface_id: string | null;
  peer_id: string | null;
  peer_name: string | null;
  public_key: string | null;
  field: string | null;
  /** The stored route of a route item. */
  route_id: string | null;
  /** The stored rule of a firewall item; null for the table, the order or a rule not ours. */
  rule_id: string | null;
  /** Secrets appear as "[redacted]". */
  desired: string | number | boolean | null;
  live: string | number | boolean | null;
  /** What apply does about it. */
  action: string;
}

export interface ReconcilePlan {
  driver: "linux" | "none";
  host_active: boolean;
  /** null when the host layer is off (nothing can be compared). */
  in_sync: boolean | null;
  generated_at: string;
  items: ReconcileItem[];
  detail: string;
}

export interface ReconcileResult {
  driver: "linux" | "none";
  host_active: boolean;
  /** Drift found before applying. */
  applied: ReconcileItem[];
  /** Drift still found by the verifying read. */
  remaining: ReconcileItem[];
  /** True when the verifying read shows no drift. */
  verified: boolean;
  generated_at: string;
  detail: string;
}

const ACTIONS: Record<DriftKind, string> = {
  interface_missing: "create the interface with its peers",
  public_key: "set the private key",
  listen_port: "set the listen port",
  mtu: "set the MTU",
  address: "set the address",
  link_state: "set the link state",
  peer_missing: "add the peer",
  peer_unexpected: "remove the peer",
  peer_field: "rewrite the peer",
};

export class Reconciler {
  constructor(private readonly ctx: TunnelContext) {}

  /**
   * The drift between `state` (and `net`, Palisade's routes and table, when
   * read) and the store, without reading the host.
   */
  async planFrom(state: LiveState | null, net?: NetLive): Promise<ReconcilePlan> {
    const driver = this.ctx.host.driver;
    const generated_at = isoTime(Date.now());
    if (!state) {
      return {
        driver: driver.name,
        host_active: false,
        in_sync: null,
        generated_at,
        items: [],
        detail: "The host layer is off; stored state is not compared with the host",
      };
    }
    const items: ReconcileItem[] = [];
    const ifaces = await desiredState(this.ctx);
    for (const { row, desired } of ifaces) {
      for (const d of diffInterface(desired, state.interfaces.get(row.name)).drift) {
        items.push({
          kind: d.kind,
          interface: row.name,
          interface_id: row.id,
          peer_id: null,
          peer_name: null,
          public_key: d.publicKey ?? null,
          field: d.field ?? null,
          route_id: null,
          rule_id: null,
          desired: d.desired,
          live: d.live,
          action: d.kind === "peer_field" ? `${ACTIONS[d.kind]} (${d.field})` : ACTIONS[d.kind],
        });
      }
    }
    if (net) items.push(...await netItems(this.ctx, net));
    if (items.some((i) => i.public_key)) {
      const peers = new Map(
        (await this.ctx.peerRepo.identities()).map((p) => [p.public_key, p]),
      );
      for (const i of items) {
        const p = i.public_key ? peers.get(i.public_key) : undefined;
        if (p) {
          i.peer_id = p.id;
          i.peer_name = p.name;
        }
      }
    }
    return {
      driver: driver.name,
      host_active: true,
      in_sync: items.length === 0,
      generated_at,
      items,
      detail: items.length
        ? `${items.length} differences between stored and live state`
        : "In sync",
    };
  }

  /** Reads the host once and lists the drift; changes nothing. */
  plan(): Promise<ReconcilePlan> {
    return this.ctx.host.run(async () => {
      const state = await this.ctx.telemetry.state(0);
      return await this.planFrom(state, await readNet(this.ctx.host.driver));
    });
  }

  /**
   * Converges every drifting interface (and, unless `net` is false,
   * Palisade's routes and table) and verifies with a second read. HostError
   * when a host command failed (after the other interfaces were tried).
   */
  async apply(actor: string, opts: { net?: boolean } = {}): Promise<ReconcileResult> {
    const { host, telemetry, transactor, audit, events } = this.ctx;
    // Start-up passes net: false and applies routes and the table whole, whatever a read says.
    const readNetIf = () => opts.net === false ? undefined : readNet(host.driver);
    const result = await host.run(async () => {
      const state = await telemetry.state(0);
      const before = await this.planFrom(state, await readNetIf());
      if (!state || before.items.length === 0) {
        return {
          before,
          after: before,
          errors: [] as string[],
          touched: [] as { id: string; name: string }[],
        };
      }
      const drifting = new Set(
        before.items.filter((i) => !isRouteItem(i) && !isFirewallItem(i)).map((i) =>
          i.interface_id!
        ),
      );
      const errors: string[] = [];
      const touched: { id: string; name: string }[] = [];
      for (const { row, desired } of await desiredState(this.ctx, [...drifting])) {
        try {
          await host.driver.sync(desired, state.interfaces.get(row.name) ?? null);
          touched.push({ id: row.id, name: row.name });
        } catch (err) {
          errors.push(`"${row.name}": ${(err as Error).message}`);
        }
      }
      // Routes need their devices: put back after the interfaces.
      errors.push(...await applyNet(host.driver, this.ctx, before.items));
      telemetry.invalidate();
      const after = await this.planFrom(await telemetry.state(0), await readNetIf());
      return { before, after, errors, touched };
    });
    const { before, after, errors, touched } = result;
    if (before.items.length) {
      await transactor.tx(async () => {
        const names = [
          ...new Set(before.items.map((i) => i.interface ? `"${i.interface}"` : "the host")),
        ].join(", ");
        await audit.add({
          actor,
          event_type: "reconcile.applied",
          message: `Reconcile applied ${before.items.length} changes on ${names}; ${
            after.items.length ? `${after.items.length} remain` : "converged"
          }`,
          resource_type: "host",
          resource_id: "tunnels",
        });
        for (const t of touched) {
          transactor.afterCommit(() =>
            events.emit("InterfaceChanged", { id: t.id, action: "reconciled", name: t.name })
          );
        }
        for (const [type, id] of await restoredIds(this.ctx, before.items, after.items)) {
          transactor.afterCommit(() => events.emit(type, { id, action: "restored" }));
        }
      });
    }
    if (errors.length) {
      throw new HostError(`Reconcile could not apply every change: ${errors.join("; ")}`);
    }
    return {
      driver: before.driver,
      host_active: before.host_active,
      applied: before.items,
      remaining: after.items,
      verified: before.host_active && after.items.length === 0,
      generated_at: after.generated_at,
      detail: !before.host_active
        ? before.detail
        : !before.items.length
        ? "Nothing to apply: in sync"
        : after.items.length
        ? `${after.items.length} differences remain after apply`
        : `Applied ${before.items.length} changes; verified in sync`,
    };
  }
}
