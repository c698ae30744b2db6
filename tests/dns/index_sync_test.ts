/**
 * Two instances on one PostgreSQL database (two PgStores, each with its own
 * answer index): a zone change made through one is served by the other within
 * a second, by the NOTIFY of its commit, and by the serial poll alone when no
 * notification arrives; TSIG keys likewise by the poll (lib/dns/index_sync.ts).
 */
import { assert, assertEquals } from "../assert.ts";
import { AuditLog } from "../../lib/audit/audit.ts";
import { PgAuditRepo } from "../../lib/audit/pg_audit_repo.ts";
import { systemClock } from "../../lib/clock.ts";
import { pgDnsRepos } from "../../lib/dns/dns_repos.ts";
import { DnsService } from "../../lib/dns/dns_service.ts";
import { DnsIndexSync } from "../../lib/dns/index_sync.ts";
import { listenZoneChanges } from "../../lib/dns/pg_zone_repo.ts";
import { DnsIndex } from "../../lib/dns/zone_index.ts";
import { EventBus } from "../../lib/events/bus.ts";
import { PgAsync } from "../../lib/store/pg/pg_async.ts";
import { PgStore } from "../../lib/store/pg/pg_store.ts";
import { havePostgres, startPostgres } from "../helpers/postgres.ts";

const Z = "sync.test";

async function instance(url: string, listen: boolean) {
  const store = await PgStore.open({ url, poolSize: 3 });
  const db = PgAsync.of(store);
  const repos = pgDnsRepos(db);
  const index = new DnsIndex(repos);
  await index.load();
  const events = new EventBus();
  const dns = new DnsService({
    ...repos,
    transactor: db,
    audit: new AuditLog(new PgAuditRepo(db), db, events, systemClock),
    events,
    clock: systemClock,
    nameservers: ["ns1.{zone}"],
    index,
  });
  // With NOTIFY the poll is made too slow to matter, so the test sees the notification work.
  const sync = new DnsIndexSync(index, repos.zones, {
    listen: listen ? (fn) => listenZoneChanges(db, fn) : undefined,
    pollMs: listen ? 60_000 : 1000,
    keyring: dns.tsig.keyring,
  });
  await sync.start();
  return {
    index,
    dns,
    async [Symbol.asyncDispose]() {
      await sync.stop();
      await store.close();
    },
  };
}

/** Milliseconds until `index` serves zone Z at `serial`; throws after `limit`. */
async function servedWithin(index: DnsIndex, serial: number, limit: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < limit / 10 + 1; i++) {
    if (index.zone(Z)?.serial === serial) return performance.now() - start;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`Zone "${Z}" not served at serial ${serial} within ${limit} ms`);
}

for (const listen of [true, false]) {
  const how = listen ? "NOTIFY" : "the serial poll alone";
  const name = `a change through one instance is served by the other within 1 s (${how})`;
  Deno.test(name, async () => {
    if (!havePostgres(name)) return;
    await using pg = await startPostgres();
    await using a = await instance(pg.url, listen);
    await using b = await instance(pg.url, listen);
    const z = await a.dns.createZone("t", { name: Z, admin_email: `h@${Z}` });
    assert(a.index.zone(Z), "the writer serves the zone at once");
    await servedWithin(b.index, z.serial, 1000);
    const r = await a.dns.createRecord("t", Z, {
      domain: `www.${Z}`,
      type: "A",
      value: "192.0.2.1",
    });
    const serial = (await a.dns.getZone(Z)).serial;
    await servedWithin(b.index, serial, 1000);
    assertEquals(b.index.zone(Z)!.nodes.has(`www.${Z}`), true);
    await a.dns.deleteRecord("t", Z, r.id);
    await servedWithin(b.index, (await a.dns.getZone(Z)).serial, 1000);
    assertEquals(b.index.zone(Z)!.nodes.has(`www.${Z}`), false);
    await a.dns.deleteZone("t", Z);
    for (let i = 0; i < 101 && b.index.zone(Z); i++) await new Promise((r) => setTimeout(r, 10));
    assertEquals(b.index.zone(Z), undefined, "the deleted zone is no longer served");
  });
}

const keyName =
  "a TSIG key created or deleted through one instance verifies on the other within 1 s";
Deno.test(keyName, async () => {
  if (!havePostgres(keyName)) return;
  await using pg = await startPostgres();
  await using a = await instance(pg.url, false);
  await using b = await instance(pg.url, false);
  const known = () => b.dns.tsig.keyring.withSecret("xfr-key") !== undefined;
  const within = async (want: boolean) => {
    for (let i = 0; i < 101 && known() !== want; i++) await new Promise((r) => setTimeout(r, 10));
    assertEquals(known(), want);
  };
  await a.dns.tsig.create("t", { name: "xfr-key", zones: [Z] });
  assert(a.dns.tsig.keyring.withSecret("xfr-key"), "the writer knows its key at once");
  await within(true);
  await a.dns.tsig.delete("t", "xfr-key");
  await within(false);
});
