/** The audit log over a SQLite store, with the synchronous write its unported domains use. */
import type { Clock } from "../clock.ts";
import type { EventBus } from "../events/bus.ts";
import { SqliteAsync } from "../store/sqlite_async.ts";
import type { Store } from "../store/store.ts";
import { AuditLog } from "./audit.ts";
import { SqliteAuditRepo } from "./audit_repo.ts";

export function sqliteAuditLog(store: Store, events: EventBus, clock: Clock): AuditLog {
  const db = SqliteAsync.of(store);
  const repo = new SqliteAuditRepo(db);
  return new AuditLog(repo, db, events, clock, { repo, transactor: store });
}
