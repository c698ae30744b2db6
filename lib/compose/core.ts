/** The audit log, settings and the system overview over the engine in use. */
import { AuditLog } from "../audit/audit.ts";
import { PgAuditRepo } from "../audit/pg_audit_repo.ts";
import { sqliteAuditLog } from "../audit/sqlite_audit.ts";
import type { Clock } from "../clock.ts";
import type { EventBus } from "../events/bus.ts";
import { PgSettingsRepo } from "../settings/pg_settings_repo.ts";
import { SettingsService } from "../settings/settings.ts";
import { type SettingsRepo, SqliteSettingsRepo } from "../settings/settings_repo.ts";
import { pickRepo, type StoreEngine } from "../store/engine.ts";
import { PgSystemRepo } from "../system/pg_system_repo.ts";
import { SystemService } from "../system/system.ts";
import { SqliteSystemRepo, type SystemRepo } from "../system/system_repo.ts";

export function auditLogOf(engine: StoreEngine, events: EventBus, clock: Clock): AuditLog {
  return pickRepo(engine, {
    sqlite: (_db, store) => sqliteAuditLog(store, events, clock),
    postgres: (db) => new AuditLog(new PgAuditRepo(db), db, events, clock),
  });
}

export function coreServices(
  engine: StoreEngine,
  d: { audit: AuditLog; events: EventBus; clock: Clock; commit: string },
) {
  const settingsRepo = pickRepo<SettingsRepo>(engine, {
    sqlite: (db) => new SqliteSettingsRepo(db),
    postgres: (db) => new PgSettingsRepo(db),
  });
  const settings = new SettingsService(settingsRepo, engine.db, d.audit, d.events, d.clock);
  const systemRepo = pickRepo<SystemRepo>(engine, {
    sqlite: (db) => new SqliteSystemRepo(db),
    postgres: (db) => new PgSystemRepo(db),
  });
  const system = new SystemService(systemRepo, d.clock, d.commit);
  return { settings, system, systemRepo };
}
