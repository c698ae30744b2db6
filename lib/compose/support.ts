/**
 * The cross-domain parts of the composition root: backups (SQLite only),
 * the diagnostics registry, and the console.
 */
import type { AttestService } from "../attest/attest.ts";
import { attestDiagnostics, type AttestThreadWatch } from "../attest/diagnostics.ts";
import { SqliteBackupRepo } from "../backup/backup_repo.ts";
import { type Backups, BackupService } from "../backup/backups.ts";
import { backupDiagnostics } from "../backup/diagnostics.ts";
import { ConsoleService } from "../console/console.ts";
import type { DnsService } from "../dns/dns_service.ts";
import type { DnsResponder } from "../dns/responder.ts";
import type { DnsIndex } from "../dns/zone_index.ts";
import { command } from "../host/command.ts";
import { migrations } from "../store/migrations/mod.ts";
import { databaseDiagnostics, Diagnostics, type DiagnosticsProbe } from "../system/diagnostics.ts";
import type { SystemService } from "../system/system.ts";
import type { SystemRepo } from "../system/system_repo.ts";
import type { Tunnels } from "../tunnel/tunnels.ts";
import { VERSION } from "../version.ts";
import type { Store } from "../store/store.ts";
import type { Common } from "./common.ts";

/**
 * Snapshots of the store in `<data>/backups` and their restore, with what a
 * restore must rebuild: the DNS answer index, the JWT secret, the host state.
 */
export function backupService(
  common: Common,
  store: Store,
  d: {
    attest: AttestService;
    index: DnsIndex;
    dns: DnsService;
    jwt: { reload(): Promise<void> };
    tunnels: Tunnels;
  },
): BackupService {
  const { config, audit, events, clock, log } = common;
  const { attest, index, dns, jwt, tunnels } = d;
  return new BackupService({
    repo: new SqliteBackupRepo(store),
    audit,
    events,
    clock,
    log: log.child({ service: "backup" }),
    dir: `${config.dataDir}/backups`,
    keep: config.backupKeep,
    appVersion: VERSION,
    hooks: {
      latestSchema: Math.max(...migrations.map((m) => m.version)),
      holdWrites: (fn) => attest.whileWritesHeld(fn),
      async rebuild() {
        await index.load();
        await dns.tsig.keyring.load();
        await jwt.reload();
        // The rows are restored whatever the host says; drift stays visible in /reconcile/plan.
        await tunnels.reconciler.apply("system").catch((err) =>
          log.warn("host apply after a restore failed", { err })
        );
      },
    },
  });
}

/** GET /diagnostics: one probe per subsystem, each in its own domain. */
export function diagnosticsOf(
  common: Common,
  d: {
    tunnels: Tunnels;
    dnsProbe: DiagnosticsProbe;
    attestThreads: AttestThreadWatch;
    attestRates: { snapshot(): Parameters<typeof attestDiagnostics>[1] };
    backups: Backups;
    systemRepo: SystemRepo;
    /** The newest migration of this build for the engine in use. */
    schemaVersion: number;
  },
): Diagnostics {
  const diagnostics = new Diagnostics()
    .register("database", () => databaseDiagnostics(d.systemRepo, d.schemaVersion))
    .register("tunnels", () => d.tunnels.diagnostics())
    .register("firewall", () => d.tunnels.netDiagnostics("firewall"))
    .register("routes", () => d.tunnels.netDiagnostics("routes"))
    .register("dns", d.dnsProbe)
    .register("attestation", () => attestDiagnostics(d.attestThreads, d.attestRates.snapshot()));
  // Backups are PostgreSQL's own there (lib/backup/external.ts): no probe.
  if (d.backups instanceof BackupService) {
    const backups = d.backups;
    diagnostics.register(
      "backups",
      () => backupDiagnostics(() => backups.list(), common.clock.now()),
    );
  }
  return diagnostics;
}

/** POST /cli/execute: the read-only console, its host commands in the driver's namespace. */
export function consoleService(
  common: Common,
  d: {
    tunnels: Tunnels;
    dns: DnsService;
    dnsResponder: DnsResponder;
    diagnostics: Diagnostics;
    system: SystemService;
  },
): ConsoleService {
  const { config, engine, audit } = common;
  return new ConsoleService({
    tunnels: d.tunnels,
    dns: d.dns,
    responder: d.dnsResponder,
    diagnostics: d.diagnostics,
    system: d.system,
    audit,
    transactor: engine.db,
    run: command(config.host.netns),
    netns: config.host.netns ?? null,
    nftTable: config.host.nftTable,
  });
}
