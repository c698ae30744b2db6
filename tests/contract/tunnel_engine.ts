/**
 * The tunnel domain on a contract engine: its repositories and, for the
 * unique rules (checked by the services before each write), the services
 * built over them with the none host driver. No tests of its own.
 */
import { AuditLog } from "../../lib/audit/audit.ts";
import { type AuditRepo, SqliteAuditRepo } from "../../lib/audit/audit_repo.ts";
import { PgAuditRepo } from "../../lib/audit/pg_audit_repo.ts";
import { systemClock } from "../../lib/clock.ts";
import { ConflictError } from "../../lib/errors.ts";
import { EventBus } from "../../lib/events/bus.ts";
import { NoneDriver } from "../../lib/host/none_driver.ts";
import { silentLogger } from "../../lib/log/log.ts";
import type { TunnelRepos } from "../../lib/tunnel/context.ts";
import type { PeerNamePublisher } from "../../lib/tunnel/peer_dns.ts";
import { pgTunnelRepos, sqliteTunnelRepos } from "../../lib/tunnel/tunnel_repos.ts";
import { createTunnels, type Tunnels } from "../../lib/tunnel/tunnels.ts";
import { assertRejects } from "../assert.ts";
import type { Engine } from "./engines.ts";

export const reposOf = (e: Engine): TunnelRepos =>
  e.pick<TunnelRepos>({
    sqlite: (db) => sqliteTunnelRepos(db.store),
    postgres: (db) => pgTunnelRepos(db),
  });

/** The tunnel services over the engine's repositories and transactor (none driver). */
export function tunnelsOn(e: Engine, names?: PeerNamePublisher): Tunnels {
  const audit = e.pick<AuditRepo>({
    sqlite: (db) => new SqliteAuditRepo(db),
    postgres: (db) => new PgAuditRepo(db),
  });
  const events = new EventBus();
  return createTunnels({
    repos: reposOf(e),
    transactor: e.transactor,
    audit: new AuditLog(audit, e.transactor, events, systemClock),
    events,
    logger: silentLogger,
    driver: new NoneDriver(),
    serverEndpoint: () => ({ host: null, port: null, enabled: false }),
    names,
  });
}

/** The field and code of the ConflictError `p` rejects with. */
export async function conflictOf(p: () => Promise<unknown>): Promise<[string?, string?]> {
  const err = await assertRejects(p, ConflictError) as ConflictError;
  return [err.field, err.code];
}

/** Rows as plain objects: node:sqlite's have a null prototype, which deep equality tells apart. */
export function plain<T>(x: T): T {
  if (Array.isArray(x)) return x.map((r) => plain(r)) as T;
  return x && typeof x === "object" ? { ...x } : x;
}
