/**
 * A real Palisade DNS stack for system tests: temp store, DnsService,
 * answer index, responder and the UDP+TCP listener on a free loopback port.
 */
import { sqliteAuditLog } from "../../lib/audit/sqlite_audit.ts";
import { systemClock } from "../../lib/clock.ts";
import { parseAcl } from "../../lib/dns/acl.ts";
import { sqliteDnsRepos } from "../../lib/dns/dns_repos.ts";
import type { JournalLimits } from "../../lib/dns/ixfr/journal_repo.ts";
import { DnsService } from "../../lib/dns/dns_service.ts";
import { DnsResponder } from "../../lib/dns/responder.ts";
import type { TsigService } from "../../lib/dns/tsig/tsig_service.ts";
import { DnsIndex } from "../../lib/dns/zone_index.ts";
import { EventBus } from "../../lib/events/bus.ts";
import type { DnsTcpLimits } from "../../lib/config/types.ts";
import { ResponseRateLimiter, type RrlOptions } from "../../lib/dns/rrl.ts";
import type { Logger } from "../../lib/log/log.ts";
import { ATTEST_STORE_TUNING } from "../../lib/attest/store_tuning.ts";
import { SqliteAsync } from "../../lib/store/sqlite_async.ts";
import { Store } from "../../lib/store/store.ts";
import { type DnsListener, startDnsListener } from "../../server/listeners/dns/listener.ts";

export interface DnsStack extends AsyncDisposable {
  dir: string;
  store: Store;
  bus: EventBus;
  service: DnsService;
  /** TSIG keys (the responder verifies with the same store). */
  tsig: TsigService;
  index: DnsIndex;
  responder: DnsResponder;
  listener: DnsListener;
  port: number;
}

export async function startDnsStack(
  opts: {
    axfrAllow?: string[];
    nameservers?: string[];
    tcp?: Partial<DnsTcpLimits>;
    rrl?: RrlOptions;
    /** The answer index's and the listener's log (errors from handlers among them). */
    log?: Logger;
    /** Bounds of each zone's IXFR journal (defaults when absent). */
    journal?: JournalLimits;
  } = {},
): Promise<DnsStack> {
  const dir = await Deno.makeTempDir({ prefix: "palisade-dns-" });
  const store = Store.open(`${dir}/palisade.db`, { tuning: ATTEST_STORE_TUNING });
  const bus = new EventBus();
  const repos = sqliteDnsRepos(store, opts.journal);
  const index = new DnsIndex(repos, opts.log);
  await index.load();
  const audit = sqliteAuditLog(store, bus, systemClock);
  const service = new DnsService({
    ...repos,
    transactor: SqliteAsync.of(store),
    audit,
    events: bus,
    clock: systemClock,
    nameservers: opts.nameservers ?? ["ns1.{zone}", "ns2.{zone}"],
    index,
  });
  const responder = new DnsResponder(index, {
    axfrAllowed: parseAcl(opts.axfrAllow ?? ["127.0.0.1", "::1"]),
    rrl: opts.rrl ? new ResponseRateLimiter(opts.rrl) : null,
    tsigKeys: service.tsig.keyring,
    updates: service.updates,
  });
  const tsig = service.tsig;
  const listener = startDnsListener(
    // Port 0: the listener binds UDP and TCP on one port the OS picks (no race with other tests).
    { hostname: "127.0.0.1", port: 0, tcp: opts.tcp, logger: opts.log },
    responder,
  );
  return {
    dir,
    store,
    bus,
    service,
    tsig,
    index,
    responder,
    listener,
    port: listener.addr.port,
    async [Symbol.asyncDispose]() {
      await listener.close();
      store.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}
