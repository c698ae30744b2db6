/**
 * What several instances on one PostgreSQL database share beyond the rows
 * (docs/scaling.md): events relayed over LISTEN/NOTIFY, and background jobs
 * elected once per cluster. On SQLite there is one instance: no relay, and
 * every job runs here.
 */
import type { EventBus } from "./events/bus.ts";
import { type EventRelay, startEventRelay } from "./events/event_relay.ts";
import { type Elector, singleInstance } from "./jobs/elector.ts";
import type { Logger } from "./log/log.ts";
import type { StoreEngine } from "./store/engine.ts";
import { PgElector } from "./store/pg/pg_elector.ts";

export interface Cluster {
  elector: Elector;
  /** Null on SQLite. */
  relay: EventRelay | null;
  /** Whoever keeps a copy of shared state registers how to reload it after missed events. */
  onMissed(reload: () => void): void;
  /** Stops the relay and gives up elected jobs; before the store closes. */
  stop(): Promise<void>;
}

export async function joinCluster(
  engine: StoreEngine,
  events: EventBus,
  log: Logger,
): Promise<Cluster> {
  const reloads: (() => void)[] = [];
  const onMissed = (reload: () => void) => void reloads.push(reload);
  if (engine.kind === "sqlite") {
    return { elector: singleInstance, relay: null, onMissed, stop: () => Promise.resolve() };
  }
  const relay = await startEventRelay(events, engine.store, {
    log: log.child({ service: "events" }),
    onMissed: () => {
      for (const reload of reloads) reload();
    },
  });
  const elector = PgElector.open(engine.store);
  return {
    elector,
    relay,
    onMissed,
    async stop() {
      await relay.stop();
      await elector.close();
    },
  };
}
