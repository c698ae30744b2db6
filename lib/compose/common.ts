/**
 * What every domain's services are built over, for the composition root
 * (lib/services.ts) and its parts in this folder.
 */
import type { AuditLog } from "../audit/audit.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config/config.ts";
import type { EventBus } from "../events/bus.ts";
import type { Logger } from "../log/log.ts";
import type { StoreEngine } from "../store/engine.ts";

export interface Common {
  config: Config;
  engine: StoreEngine;
  log: Logger;
  clock: Clock;
  events: EventBus;
  audit: AuditLog;
}
