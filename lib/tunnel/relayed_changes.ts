/**
 * On the instance that drives the gateway host, the tunnel changes other
 * instances stored (their events, relayed over LISTEN/NOTIFY) start the same
 * host jobs a local change starts (docs/tunnels.md, "Several instances").
 * Each job reads the desired state from the database when it runs, so an
 * event only has to say what changed, and events out of order still end on
 * the newest state. Without an active host driver nothing is subscribed.
 */
import type { BusEvent, EventBus } from "../events/bus.ts";
import type { Logger } from "../log/log.ts";
import type { HostSync } from "./host_sync.ts";

/** Subscribes when `host` drives a host; returns the function that stops it. */
export function applyRelayedChanges(bus: EventBus, host: HostSync, log: Logger): () => void {
  if (!host.driver.active) return () => {};
  return bus.subscribe((event, origin) => {
    if (origin === undefined) return;
    const job = hostJobFor(event, host);
    if (!job) return;
    host.apply(`${event.type} from another instance`, job).catch((err) =>
      log.warn("applying another instance's change to the host failed", { error: err })
    );
  });
}

/** The host job a change of this kind needs; null for events with no host effect. */
export function hostJobFor(event: BusEvent, host: HostSync): (() => Promise<unknown>) | null {
  switch (event.type) {
    case "InterfaceChanged": {
      const { id, action, name } = event.payload;
      if (action === "deleted") return () => host.driver.remove(name);
      return async () => {
        await host.syncInterface(id);
        await host.syncRoutesOf(id);
        await host.syncFirewallOf(id);
      };
    }
    case "PeerChanged":
      // The whole interface: a deleted peer's key is no longer in the store to remove it by.
      return () => host.syncInterface(event.payload.interface_id);
    case "RouteChanged":
      return async () => {
        // A route changes its gateway peer's AllowedIPs: converge every interface, then routes.
        for (const iface of await host.repos.interfaceRepo.all()) {
          await host.syncInterface(iface.id);
        }
        await host.syncRoutes();
      };
    case "FirewallChanged":
      return () => host.syncFirewall();
    default:
      return null;
  }
}
