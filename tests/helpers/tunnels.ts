/**
 * A tunnel stack over a temporary store: audit log, event bus (recording
 * every event), services and the given host driver.
 */
import type { AuditLog } from "../../lib/audit/audit.ts";
import { sqliteAuditLog } from "../../lib/audit/sqlite_audit.ts";
import { systemClock } from "../../lib/clock.ts";
import { type BusEvent, EventBus } from "../../lib/events/bus.ts";
import type { HostDriver } from "../../lib/host/driver.ts";
import { NoneDriver } from "../../lib/host/none_driver.ts";
import { silentLogger } from "../../lib/log/log.ts";
import type { ServerEndpoint } from "../../lib/tunnel/context.ts";
import { createTunnels, type TunnelOptions, type Tunnels } from "../../lib/tunnel/tunnels.ts";
import { tempStore } from "./temp_store.ts";
import type { Store } from "../../lib/store/store.ts";

export interface TunnelHarness extends AsyncDisposable {
  tunnels: Tunnels;
  store: Store;
  /** The store's temporary directory, removed on dispose. */
  dir: string;
  audit: AuditLog;
  events: BusEvent[];
  /** Mutable: what the settings service would return. */
  endpoint: ServerEndpoint;
}

export async function tunnelHarness(
  driver: HostDriver = new NoneDriver(),
  opts: Partial<TunnelOptions> = {},
): Promise<TunnelHarness> {
  const t = await tempStore();
  const bus = new EventBus();
  const events: BusEvent[] = [];
  bus.subscribe((e) => events.push(e));
  const audit = sqliteAuditLog(t.store, bus, systemClock);
  const endpoint: ServerEndpoint = { host: null, port: null, enabled: false };
  const tunnels = createTunnels({
    store: t.store,
    audit,
    events: bus,
    logger: silentLogger,
    driver,
    serverEndpoint: () => endpoint,
    ...opts,
  });
  return {
    tunnels,
    store: t.store,
    dir: t.dir,
    audit,
    events,
    endpoint,
    async [Symbol.asyncDispose]() {
      await tunnels.stop();
      await t[Symbol.asyncDispose]();
    },
  };
}
