/**
 * The zone history repository (lib/dns/history/history_repo.ts,
 * pg_history_repo.ts) behaves the same on both engines: change sets stored
 * with their RRsets before and after and read back whole, listed newest first
 * with paging, read one by one and those after one, trimmed to the newest,
 * gone with their zone, and rolled back with their transaction. The DNS
 * service writes one change set per change on either engine and reverts one.
 */
import { assertEquals, assertRejects } from "../assert.ts";
import type { NewHistoryEntry } from "../../lib/dns/history/history_repo.ts";
import { ConflictError } from "../../lib/errors.ts";
import { dnsReposOf, dnsServiceOf, zoneRow } from "./dns_fixtures.ts";
import { repoContract } from "./engines.ts";

const Z = "example.org";

const entry = (n: number, over: Partial<NewHistoryEntry> = {}): NewHistoryEntry => ({
  zone: Z,
  serialFrom: 2026031400 + n,
  serialTo: 2026031401 + n,
  actor: `user${n}`,
  summary: `Change number ${n}`,
  changes: [{
    name: `www.${Z}`,
    type: "A",
    before: n === 1 ? [] : [{ value: `192.0.2.${n - 1}`, ttl: 300 }],
    after: [{ value: `192.0.2.${n}`, ttl: 300 }],
  }],
  reverts: null,
  createdAt: 1_700_000_000_000 + n,
  ...over,
});

repoContract("HistoryRepo", {
  "a change set is read back whole; ids grow": async (e) => {
    const { zones, history } = dnsReposOf(e);
    await zones.insert(zoneRow(Z));
    const a = await history.add(entry(1));
    const b = await history.add(entry(2, { reverts: a }));
    assertEquals(b > a, true);
    assertEquals(await history.get(Z, a), { id: a, ...entry(1) });
    assertEquals(await history.get(Z, b), { id: b, ...entry(2, { reverts: a }) });
    assertEquals(await history.get(Z, b + 1), undefined);
    assertEquals(await history.get("other.org", a), undefined);
  },

  "listed newest first, paged by before; after() lists the newer ones oldest first": async (e) => {
    const { zones, history } = dnsReposOf(e);
    await zones.insert(zoneRow(Z));
    await zones.insert(zoneRow("other.org"));
    const ids = [];
    for (let n = 1; n <= 5; n++) ids.push(await history.add(entry(n)));
    await history.add(entry(9, { zone: "other.org" }));
    const page1 = await history.list(Z, 2);
    assertEquals(page1.map((h) => h.id), [ids[4], ids[3]]);
    const page2 = await history.list(Z, 2, page1[1].id);
    assertEquals(page2.map((h) => h.id), [ids[2], ids[1]]);
    assertEquals((await history.after(Z, ids[2])).map((h) => h.id), [ids[3], ids[4]]);
    assertEquals(await history.after(Z, ids[4]), []);
  },

  "trim keeps the newest; a deleted zone takes its history": async (e) => {
    const { zones, history } = dnsReposOf(e);
    await zones.insert(zoneRow(Z));
    const ids = [];
    for (let n = 1; n <= 4; n++) ids.push(await history.add(entry(n)));
    await history.trim(Z, 3);
    assertEquals((await history.list(Z, 10)).map((h) => h.id), [ids[3], ids[2], ids[1]]);
    await zones.delete(Z);
    assertEquals(await history.list(Z, 10), []);
  },

  "a change set written in a rolled-back transaction is gone": async (e) => {
    const { zones, history } = dnsReposOf(e);
    await zones.insert(zoneRow(Z));
    await assertRejects(() =>
      e.transactor.tx(async () => {
        await history.add(entry(1));
        throw new Error("roll back");
      })
    );
    assertEquals(await history.list(Z, 10), []);
  },

  "the service keeps each change and reverts one, refusing an overlapped revert": async (e) => {
    const dns = dnsServiceOf(e);
    await dns.createZone("alice", { name: Z, admin_email: `hostmaster@${Z}` });
    const r = await dns.createRecord("alice", Z, {
      domain: `www.${Z}`,
      type: "A",
      value: "192.0.2.1",
    });
    await dns.updateRecord("bob", Z, r.id, { value: "192.0.2.2", ttl: 600 });
    const [second, first] = (await dns.listHistory(Z)).changes;
    assertEquals([first.actor, second.actor], ["alice", "bob"]);
    assertEquals(second.changes, [{
      name: `www.${Z}`,
      type: "A",
      before: [{ value: "192.0.2.1", ttl: 3600 }],
      after: [{ value: "192.0.2.2", ttl: 600 }],
    }]);
    const err = await assertRejects(() => dns.revertChange("carol", Z, first.id), ConflictError);
    assertEquals((err as ConflictError).code, "history_conflict");
    await dns.revertChange("carol", Z, second.id);
    const rows = (await dns.listRecords(Z, "A")).records.map((x) => [x.value, x.ttl]);
    assertEquals(rows, [["192.0.2.1", 3600]]);
    const [revert] = (await dns.listHistory(Z)).changes;
    assertEquals([revert.actor, revert.reverts, revert.changes[0].after], [
      "carol",
      second.id,
      [{ value: "192.0.2.1", ttl: 3600 }],
    ]);
  },
});
