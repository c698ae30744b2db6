/**
 * Zones and records over the engine in use, the in-memory index the DNS
 * listener answers from, and on PostgreSQL the sync that keeps that index
 * equal to the shared tables (a NOTIFY per change, a poll each second).
 */
import { parseAcl } from "../dns/acl.ts";
import { type ApiKeyRepo, SqliteApiKeyRepo } from "../dns/api_keys/api_key_repo.ts";
import { ApiKeyService } from "../dns/api_keys/api_key_service.ts";
import { PgApiKeyRepo } from "../dns/api_keys/pg_api_key_repo.ts";
import { dnsDiagnostics } from "../dns/diagnostics.ts";
import { pgDnsRepos, sqliteDnsRepos } from "../dns/dns_repos.ts";
import { DnsRuntime } from "../dns/dns_runtime.ts";
import { DnsService } from "../dns/dns_service.ts";
import { RolloverScheduler } from "../dns/dnssec/rollover_scheduler.ts";
import { DnsIndexSync } from "../dns/index_sync.ts";
import { OwnedRecords } from "../dns/owned_records.ts";
import { PgRecordOwnerRepo } from "../dns/pg_record_owner_repo.ts";
import { listenZoneChanges } from "../dns/pg_zone_repo.ts";
import { type RecordOwnerRepo, SqliteRecordOwnerRepo } from "../dns/record_owner_repo.ts";
import { DnsResponder } from "../dns/responder.ts";
import { rrlFor } from "../dns/rrl.ts";
import { DnsIndex } from "../dns/zone_index.ts";
import type { Elector } from "../jobs/elector.ts";
import { pickRepo } from "../store/engine.ts";
import type { SystemService } from "../system/system.ts";
import type { Common } from "./common.ts";

export async function dnsServices(c: Common, system: SystemService, elector: Elector) {
  const { config, engine } = c;
  const log = c.log.child({ service: "dns" });
  const repos = pickRepo(engine, {
    sqlite: (_db, store) => sqliteDnsRepos(store, config.dns.ixfrJournal),
    postgres: (db) => pgDnsRepos(db, config.dns.ixfrJournal),
  });
  const index = new DnsIndex(repos, log);
  await index.load();
  const ctx = {
    ...repos,
    transactor: engine.db,
    ...{ audit: c.audit, events: c.events, clock: c.clock },
    nameservers: config.dns.nameservers,
    index,
    propagationDelay: config.dns.dnssec.propagationDelay,
  };
  const dns = new DnsService(ctx);
  // Peer names in DNS: the tunnel domain publishes through the records' own write path.
  const peerNames = new OwnedRecords(
    ctx,
    pickRepo<RecordOwnerRepo>(engine, {
      sqlite: (db) => new SqliteRecordOwnerRepo(db),
      postgres: (db) => new PgRecordOwnerRepo(db),
    }),
  );
  const apiKeyRepo = pickRepo<ApiKeyRepo>(engine, {
    sqlite: (db) => new SqliteApiKeyRepo(db),
    postgres: (db) => new PgApiKeyRepo(db),
  });
  const zoneExists = async (name: string) => (await repos.zones.get(name)) !== undefined;
  const dnsApiKeys = new ApiKeyService(apiKeyRepo, engine.db, c.audit, c.clock, zoneExists);
  await dns.tsig.keyring.load();
  // Key rollovers advance on this timer (started and stopped with the services), on one
  // instance of a cluster.
  const rollover = new RolloverScheduler(ctx, {
    checkMs: config.dns.dnssec.rolloverCheckMs,
    log: c.log.child({ service: "dnssec" }),
    elected: () => elector.elected("dnssec_rollover"),
  });
  const dnsResponder = new DnsResponder(index, {
    axfrAllowed: parseAcl(config.dns.axfrAllow),
    rrl: rrlFor(config.dns.rrl, config.dnsListen.hostname),
    tsigKeys: dns.tsig.keyring,
    updates: dns.updates,
  });
  system.addProbe({ name: "dns", summary: () => index.counts });
  const dnsRuntime = new DnsRuntime();
  const dnsProbe = () => dnsDiagnostics(dnsRuntime, repos.zones, index);
  // Another instance's changes: on SQLite there is none.
  const sync = engine.kind === "postgres"
    ? new DnsIndexSync(index, repos.zones, {
      listen: (fn) => listenZoneChanges(engine.db, fn),
      keyring: dns.tsig.keyring,
      log,
    })
    : null;
  return {
    ...{ dns, dnsApiKeys, dnsResponder, rollover, index, dnsRuntime, dnsProbe, sync },
    peerNames,
  };
}
