/**
 * The record repository (lib/dns/record_repo.ts, pg_record_repo.ts) behaves
 * the same on SQLite and PostgreSQL: every read the zone rules and the
 * answer index use, writes, a record stored twice as a ConflictError, the
 * orders, pages and cursors of the listings, and rollback.
 */
import { assertEquals, assertRejects } from "../assert.ts";
import { ConflictError } from "../../lib/errors.ts";
import { paginateAsync } from "../../lib/paging.ts";
import type { RecordRepo, RecordRow } from "../../lib/dns/record_repo.ts";
import { dnsReposOf, plain, recordRow, soaRow, zoneRow } from "./dns_fixtures.ts";
import { type Engine, repoContract } from "./engines.ts";

const Z = "example.org";

async function seeded(e: Engine): Promise<RecordRepo> {
  const { zones, records } = dnsReposOf(e);
  await zones.insert(zoneRow(Z));
  await zones.insert(zoneRow("other.test"));
  await records.insert(soaRow(Z));
  const rows: [string, string, string, string, number][] = [
    ["r5", "www.example.org", "A", "192.0.2.2", 300],
    ["r2", "www.example.org", "A", "192.0.2.1", 300],
    ["r3", "example.org", "MX", "10 mail.example.org.", 600],
    ["r4", "sub.example.org", "NS", "ns.sub.example.org.", 300],
    ["r1", "a.b.sub.example.org", "TXT", '"hello"', 60],
    ["r6", "www.example.org", "AAAA", "2001:db8::1", 300],
  ];
  for (const [i, [id, name, type, value, ttl]] of rows.entries()) {
    await records.insert(recordRow(Z, id, name, type, value, { ttl, created_at: 1000 + i }));
  }
  await records.insert(soaRow("other.test"));
  await records.insert(recordRow("other.test", "o1", "www.other.test", "A", "192.0.2.9"));
  return records;
}

const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

repoContract("RecordRepo", {
  "reads: lists, owners, types, RRsets, delegations, counts": async (e) => {
    const r = await seeded(e);
    assertEquals(ids(await r.list(Z)), ["soa-example.org", "r1", "r3", "r4", "r2", "r5", "r6"]);
    assertEquals(ids(await r.listOfType(Z, "A")), ["r2", "r5"]);
    assertEquals(await r.countOfType(Z, "A"), 2);
    assertEquals((await r.get(Z, "r3"))?.value, "10 mail.example.org.");
    assertEquals(await r.get("other.test", "r3"), undefined);
    assertEquals(ids(await r.atName(Z, "www.example.org")), ["r2", "r5", "r6"]);
    assertEquals(ids(await r.atName(Z, "www.example.org", "A")), ["r2", "r5"]);
    assertEquals((await r.typesAt(Z, "www.example.org")).sort(), ["A", "AAAA"]);
    assertEquals(await r.exists(Z, "www.example.org", "A", "192.0.2.1"), true);
    assertEquals(await r.exists(Z, "www.example.org", "A", "192.0.2.1", "r2"), false);
    assertEquals(await r.exists(Z, "www.example.org", "A", "192.0.2.3"), false);
    assertEquals({ ...await r.rrsetStats(Z, "www.example.org", "A") }, { count: 2, bytes: 18 });
    assertEquals({ ...await r.rrsetStats(Z, "www.example.org", "A", "r2") }, {
      count: 1,
      bytes: 9,
    });
    assertEquals({ ...await r.rrsetStats(Z, "nowhere.example.org", "A") }, { count: 0, bytes: 0 });
    assertEquals((await r.rrsetValues(Z, "www.example.org", "A")).sort(), [
      "192.0.2.1",
      "192.0.2.2",
    ]);
    assertEquals(await r.rrsetValues(Z, "www.example.org", "A", "r5"), ["192.0.2.1"]);
    assertEquals(await r.hasNs(Z, "sub.example.org"), true);
    assertEquals(await r.hasNs(Z, "www.example.org"), false);
    assertEquals(
      await r.ownerOfType(Z, "NS", ["a.b.sub.example.org", "b.sub.example.org", "sub.example.org"]),
      "sub.example.org",
    );
    assertEquals(await r.ownerOfType(Z, "NS", []), undefined);
    assertEquals(await r.ownerOfType(Z, "DNAME", ["sub.example.org"]), undefined);
    assertEquals(await r.hasBelow(Z, "sub.example.org"), true);
    assertEquals(await r.hasBelow(Z, "b.sub.example.org"), true);
    assertEquals(await r.hasBelow(Z, "www.example.org"), false);
    assertEquals(await r.count(Z), 7);
    assertEquals(await r.maxDataTtl(Z), 600);
    assertEquals(await r.maxDataTtl("nowhere.test"), 0);
  },

  "data() gives every record but the SOA, by owner, then in the order stored": async (e) => {
    const r = await seeded(e);
    assertEquals(plain(await r.data(Z)), [
      { id: "r1", name: "a.b.sub.example.org", type: "TXT", value: '"hello"', ttl: 60 },
      { id: "r3", name: "example.org", type: "MX", value: "10 mail.example.org.", ttl: 600 },
      { id: "r4", name: "sub.example.org", type: "NS", value: "ns.sub.example.org.", ttl: 300 },
      { id: "r5", name: "www.example.org", type: "A", value: "192.0.2.2", ttl: 300 },
      { id: "r2", name: "www.example.org", type: "A", value: "192.0.2.1", ttl: 300 },
      { id: "r6", name: "www.example.org", type: "AAAA", value: "2001:db8::1", ttl: 300 },
    ]);
  },

  "writes: update, delete, SOA rewrite, every record but the SOA": async (e) => {
    const r = await seeded(e);
    await r.update("r2", "192.0.2.7", 120, 5000);
    assertEquals(plain([(await r.get(Z, "r2"))!]), [
      recordRow(Z, "r2", "www.example.org", "A", "192.0.2.7", {
        ttl: 120,
        created_at: 1001,
        updated_at: 5000,
      }),
    ]);
    await r.delete("r5");
    assertEquals(await r.get(Z, "r5"), undefined);
    assertEquals(await r.updateSoa(Z, "new soa", 900, 6000), true);
    assertEquals((await r.get(Z, "soa-example.org"))?.value, "new soa");
    assertEquals(await r.updateSoa("nowhere.test", "x", 1, 1), false);
    assertEquals(await r.deleteData(Z), 5);
    assertEquals(ids(await r.list(Z)), ["soa-example.org"]);
    assertEquals(await r.count("other.test"), 2);
  },

  "a record stored twice is a ConflictError naming the value": async (e) => {
    const r = await seeded(e);
    const err = await assertRejects(
      () => r.insert(recordRow(Z, "r9", "www.example.org", "A", "192.0.2.1")),
      ConflictError,
    ) as ConflictError;
    assertEquals(
      [err.message, err.field],
      ['Record "www.example.org" of type "A" with value "192.0.2.1" already exists', "value"],
    );
  },

  "page() and pageOfType(): SOA first, then by name, type and id; pages and cursors agree": async (
    e,
  ) => {
    const r = await seeded(e);
    const all = ["soa-example.org", "r1", "r3", "r4", "r2", "r5", "r6"];
    for (const limit of [1, 2, 3]) {
      const walk: string[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 10; i++) {
        const page = await paginateAsync<RecordRow>({ limit, cursor }, {
          kind: "records",
          shape: ["n", "s", "s", "s"],
          keyOf: (x) => [x.type === "SOA" ? 0 : 1, x.name, x.type, x.id],
          rows: (w) => r.page(Z, w),
          count: () => r.count(Z),
        });
        assertEquals(page.total, 7);
        walk.push(...ids(page.items));
        if (!page.next_cursor) break;
        cursor = page.next_cursor;
      }
      assertEquals(walk, all, `limit ${limit}`);
    }
    assertEquals(ids(await r.page(Z, { offset: 0, limit: 2 })), ["soa-example.org", "r1"]);
    assertEquals(ids(await r.page(Z, { offset: 2, limit: 2 })), ["r3", "r4"]);
    assertEquals(ids(await r.page(Z, { offset: 5 })), ["r5", "r6"]);
    assertEquals(ids(await r.pageOfType(Z, "A", { offset: 0, limit: 1 })), ["r2"]);
    assertEquals(
      ids(await r.pageOfType(Z, "A", { offset: 0, after: ["www.example.org", "r2"] })),
      ["r5"],
    );
    assertEquals(ids(await r.pageOfType(Z, "A", { offset: 1 })), ["r5"]);
  },

  "writes inside a transaction that rolls back are undone": async (e) => {
    const r = await seeded(e);
    await assertRejects(() =>
      e.transactor.tx(async () => {
        await r.insert(recordRow(Z, "r9", "new.example.org", "A", "192.0.2.9"));
        await r.delete("r2");
        throw new Error("Rolled back on purpose");
      })
    );
    assertEquals(await r.get(Z, "r9"), undefined);
    assertEquals((await r.get(Z, "r2"))?.id, "r2");
  },
});
