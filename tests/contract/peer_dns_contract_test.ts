/**
 * Peer names in DNS over each engine's repositories and transactor (on
 * PostgreSQL a transaction may run more than once): the tunnel services
 * publish through `OwnedRecords` and the DNS service; a rename moves the
 * record with a serial step, a clash with a hand-made record refuses the
 * rename and leaves the peer as it was, and delete withdraws the record.
 */
import { assert, assertEquals } from "../assert.ts";
import { AuditLog } from "../../lib/audit/audit.ts";
import { type AuditRepo, SqliteAuditRepo } from "../../lib/audit/audit_repo.ts";
import { PgAuditRepo } from "../../lib/audit/pg_audit_repo.ts";
import { systemClock } from "../../lib/clock.ts";
import { DnsService } from "../../lib/dns/dns_service.ts";
import { OwnedRecords } from "../../lib/dns/owned_records.ts";
import { PgRecordOwnerRepo } from "../../lib/dns/pg_record_owner_repo.ts";
import { type RecordOwnerRepo, SqliteRecordOwnerRepo } from "../../lib/dns/record_owner_repo.ts";
import { EventBus } from "../../lib/events/bus.ts";
import { dnsReposOf } from "./dns_fixtures.ts";
import { type Engine, repoContract } from "./engines.ts";
import { conflictOf, tunnelsOn } from "./tunnel_engine.ts";

const Z = "vpn.test";

function build(e: Engine) {
  const events = new EventBus();
  const audit = e.pick<AuditRepo>({
    sqlite: (db) => new SqliteAuditRepo(db),
    postgres: (db) => new PgAuditRepo(db),
  });
  const ctx = {
    ...dnsReposOf(e),
    transactor: e.transactor,
    audit: new AuditLog(audit, e.transactor, events, systemClock),
    events,
    clock: systemClock,
    nameservers: ["ns1.{zone}"],
  };
  const owners = e.pick<RecordOwnerRepo>({
    sqlite: (db) => new SqliteRecordOwnerRepo(db),
    postgres: (db) => new PgRecordOwnerRepo(db),
  });
  return { dns: new DnsService(ctx), tunnels: tunnelsOn(e, new OwnedRecords(ctx, owners)) };
}

repoContract("Peer names in DNS", {
  "a peer's A record follows rename and delete; a clash refuses the rename and keeps the peer":
    async (e) => {
      const { dns, tunnels } = build(e);
      await dns.createZone("t", { name: Z, admin_email: `h@${Z}` });
      await dns.createRecord("t", Z, { domain: `taken.${Z}`, type: "A", value: "192.0.2.1" });
      const i = await tunnels.interfaces.create(
        { name: "wg1", address_v4: "10.8.0.1/24", dns_zone: Z },
        "t",
      );
      const p = await tunnels.peers.create(i.id, { name: "Ann", address: "10.8.0.5" }, "t");
      const a = async () =>
        (await dns.listRecords(Z, "A")).records.map((r) => `${r.domain} ${r.value}`);
      const serial = async () => (await dns.getZone(Z)).serial;
      assertEquals(await a(), ["ann.vpn.test 10.8.0.5", "taken.vpn.test 192.0.2.1"]);
      const before = await serial();
      await tunnels.peers.update(p.id, { name: "bo" }, "t");
      assertEquals(await a(), ["bo.vpn.test 10.8.0.5", "taken.vpn.test 192.0.2.1"]);
      assert(await serial() > before);
      assertEquals(
        await conflictOf(() => tunnels.peers.update(p.id, { name: "taken" }, "t")),
        ["name", "dns_name_taken"],
      );
      assertEquals((await tunnels.peers.view(p.id)).name, "bo");
      assertEquals(await a(), ["bo.vpn.test 10.8.0.5", "taken.vpn.test 192.0.2.1"]);
      await tunnels.peers.delete(p.id, "t");
      assertEquals(await a(), ["taken.vpn.test 192.0.2.1"]);
    },
});
