/**
 * Paged listings of the DNS API (docs/api.md, "Pagination"; issue 26, point
 * 4): ten thousand records walked page by page over a real listener while
 * other records are added, each page timed around the request on loopback.
 */
import { assert, assertEquals } from "../assert.ts";
import { type DnsApi, dnsApi } from "../helpers/dns_api.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { timedRead } from "../helpers/timed_read.ts";

type Reply = Awaited<ReturnType<DnsApi["get"]>>;

/** The items under `key` of a listing's body. */
function items<T = { id: string }>(r: Reply, key: string): T[] {
  return r.body[key] as T[];
}

/** `total` and `next_cursor` of a paged body. */
function pageOf(r: Reply): { total: number; next: string | null } {
  return { total: r.body.total as number, next: r.body.next_cursor as string | null };
}

const ZONE = "paging.test";
const SEEDED = 10_000;
const PAGE = 500;
const PAGE_BUDGET_MS = 50;

/** An owner name for record `i`; the digits are scrambled so inserts land all over the order. */
function owner(prefix: string, i: number): string {
  const scrambled = (i * 7919) % 100_003;
  return `${prefix}${scrambled.toString(36)}.${ZONE}`;
}

async function seed(api: DnsApi): Promise<void> {
  const created = await api.post("/zones", {
    name: ZONE,
    admin_email: `hostmaster@${ZONE}`,
    refresh: 3600,
    retry: 600,
    expire: 604800,
    minimum: 300,
    default_ttl: 300,
  });
  assertEquals(created.status, 201);
  for (let from = 0; from < SEEDED; from += 1000) {
    const operations = [];
    for (let i = from; i < from + 1000; i++) {
      const value = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
      operations.push({ operation: "create", domain: owner("h", i), type: "A", value, ttl: 300 });
    }
    const batch = await api.post(`/zones/${ZONE}/records/batch`, { operations });
    assertEquals(batch.status, 200, JSON.stringify(batch.body).slice(0, 300));
  }
}

interface Walk {
  ids: string[];
  pages: number;
  slowest: number;
  firstTotal: number;
}

/** Follows next_cursor from the first page to the last, timing each request (timedRead). */
async function walk(api: DnsApi, query: string, onPage?: () => Promise<void>): Promise<Walk> {
  const out: Walk = { ids: [], pages: 0, slowest: 0, firstTotal: -1 };
  let cursor: string | null = null;
  // Bounded: twice the pages the seeded records need, plus room for the inserts.
  for (let n = 0; n < 2 * (SEEDED / PAGE) + 10; n++) {
    const path: string = `/zones/${ZONE}/records?${query}limit=${PAGE}` +
      (cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`);
    const { result: res, ms: took } = await timedRead(() => api.get(path), PAGE_BUDGET_MS);
    assertEquals(res.status, 200, JSON.stringify(res.body));
    out.slowest = Math.max(out.slowest, took);
    if (out.firstTotal < 0) out.firstTotal = pageOf(res).total;
    const records = items(res, "records");
    assert(records.length <= PAGE);
    out.ids.push(...records.map((r) => r.id));
    out.pages++;
    cursor = pageOf(res).next;
    if (cursor === null) return out;
    await onPage?.();
  }
  throw new Error("the walk did not end");
}

Deno.test({
  name:
    "10,000 records page in under 50 ms a page, and a walk meets every record once while others are added",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using t = await startTestServer();
    const api = await dnsApi(t);
    await seed(api);

    // The records that exist before the walk, read unpaged (the listing as it answered before paging).
    const before = await api.get(`/zones/${ZONE}/records`);
    assertEquals(items(before, "records").length, SEEDED + 1);
    assertEquals(pageOf(before), { total: SEEDED + 1, next: null });
    const existing = new Set(items(before, "records").map((r) => r.id));

    // Warm the route once, so the timing below is of paging and not of the first compilation.
    assertEquals((await api.get(`/zones/${ZONE}/records?limit=1`)).status, 200);

    // Between pages, add records whose names sort all over the list, some before the cursor.
    let added = 0;
    const addSome = async () => {
      for (let k = 0; k < 3; k++, added++) {
        const res = await api.post(`/zones/${ZONE}/records`, {
          domain: owner("n", added),
          type: "A",
          value: "192.0.2.1",
          ttl: 300,
        });
        assertEquals(res.status, 201);
      }
    };
    const w = await walk(api, "", addSome);

    assertEquals(w.firstTotal, SEEDED + 1);
    assertEquals(new Set(w.ids).size, w.ids.length, "a record was served twice");
    const missing = [...existing].filter((id) => !w.ids.includes(id));
    assertEquals(missing, [], "a record that existed before the walk was not served");
    assert(w.pages >= SEEDED / PAGE, `only ${w.pages} pages`);
    assert(added > 0);
    assert(w.slowest < PAGE_BUDGET_MS, `the slowest page took ${w.slowest.toFixed(1)} ms`);

    // The listing filtered by type pages the same way, its own order (name, id).
    const onlyA = await walk(api, "type=A&");
    assertEquals(onlyA.firstTotal, SEEDED + added);
    assertEquals(new Set(onlyA.ids).size, SEEDED + added);
    assert(onlyA.slowest < PAGE_BUDGET_MS, `the slowest page took ${onlyA.slowest.toFixed(1)} ms`);
  },
});

Deno.test("offset pages concatenate to the cursor walk; a bad cursor, cursor with offset, or limit over 1000 is 400", async () => {
  await using t = await startTestServer();
  const api = await dnsApi(t);
  for (const name of ["b.test", "a.test", "d.test", "c.test", "e.test"]) {
    const res = await api.post("/zones", {
      name,
      admin_email: `hostmaster@${name}`,
      refresh: 3600,
      retry: 600,
      expire: 604800,
      minimum: 300,
      default_ttl: 300,
    });
    assertEquals(res.status, 201);
  }
  const names = (r: Reply) => items<{ name: string }>(r, "zones").map((z) => z.name);
  const first = await api.get("/zones?limit=2");
  assertEquals([names(first), pageOf(first).total], [["a.test", "b.test"], 5]);
  const second = await api.get(`/zones?limit=2&cursor=${pageOf(first).next}`);
  assertEquals(names(second), ["c.test", "d.test"]);
  const last = await api.get(`/zones?limit=2&cursor=${pageOf(second).next}`);
  assertEquals([names(last), pageOf(last).next], [["e.test"], null]);
  assertEquals(names(await api.get("/zones?limit=2&offset=3")), ["d.test", "e.test"]);
  // Unpaged: every zone, the total, no cursor.
  const all = await api.get("/zones");
  assertEquals([names(all).length, pageOf(all)], [5, { total: 5, next: null }]);

  assertEquals((await api.get("/zones?limit=2&cursor=not-a-cursor")).status, 400);
  // A cursor of another listing is not taken either.
  const users = await api.get("/users?limit=1");
  assertEquals((await api.get(`/zones?cursor=${pageOf(users).next ?? "x"}`)).status, 400);
  const both = await api.get(`/zones?limit=2&offset=1&cursor=${pageOf(first).next}`);
  assertEquals([both.status, both.body.error], [400, 'Give "cursor" or "offset", not both']);
  assertEquals((await api.get("/zones?limit=1001")).status, 400);
  assertEquals((await api.get("/zones?limit=1000")).status, 200);
});

Deno.test("users page oldest first with the total", async () => {
  await using t = await startTestServer();
  const api = await dnsApi(t);
  for (const name of ["zed", "amy", "kim"]) {
    // Apart in time, so the order is by creation and not by name.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await t.addUser(name, "viewer", `${name}-password-123`);
  }
  const names = (r: Reply) => items<{ username: string }>(r, "users").map((u) => u.username);
  const first = await api.get("/users?limit=2");
  assertEquals([names(first), pageOf(first).total], [["admin", "zed"], 4]);
  const rest = await api.get(`/users?limit=2&cursor=${pageOf(first).next}`);
  assertEquals([names(rest), pageOf(rest).next], [["amy", "kim"], null]);
  const all = await api.get("/users");
  assertEquals([names(all).length, pageOf(all)], [4, { total: 4, next: null }]);
});

Deno.test("a zone's DNSSEC keys page with keys_limit and keys_cursor, oldest first, with keys_total", async () => {
  await using t = await startTestServer();
  const api = await dnsApi(t);
  const zone = "signed.test";
  const created = await api.post("/zones", {
    name: zone,
    admin_email: `hostmaster@${zone}`,
    refresh: 3600,
    retry: 600,
    expire: 604800,
    minimum: 300,
    default_ttl: 300,
  });
  assertEquals(created.status, 201);
  assertEquals((await api.post(`/zones/${zone}/dnssec`, { enable: true })).status, 200);
  // A rollover adds a third key, created after the first two.
  await new Promise((resolve) => setTimeout(resolve, 5));
  const rotated = await api.post(`/zones/${zone}/dnssec/rotate`, {});
  assertEquals(rotated.status, 200, JSON.stringify(rotated.body));

  const path = `/zones/${zone}/dnssec`;
  const all = await api.get(path);
  const ids = items<{ id: string }>(all, "keys").map((k) => k.id);
  assertEquals([ids.length, all.body.keys_total, all.body.keys_next_cursor], [3, 3, null]);
  assert((all.body.ds_records as unknown[]).length > 0);

  const first = await api.get(`${path}?keys_limit=2`);
  const firstIds = items<{ id: string }>(first, "keys").map((k) => k.id);
  assertEquals([firstIds.length, first.body.keys_total], [2, 3]);
  const newKey = rotated.body.new_key_id as string;
  assert(!firstIds.includes(newKey), "the newest key came first");
  // The rest of the status is whole whatever the page.
  assertEquals(first.body.ds_records, all.body.ds_records);
  const rest = await api.get(`${path}?keys_limit=2&keys_cursor=${first.body.keys_next_cursor}`);
  assertEquals(items<{ id: string }>(rest, "keys").map((k) => k.id), [newKey]);
  assertEquals(rest.body.keys_next_cursor, null);
  assertEquals(
    items<{ id: string }>(await api.get(`${path}?keys_limit=5&keys_offset=2`), "keys").length,
    1,
  );

  assertEquals((await api.get(`${path}?keys_limit=1001`)).status, 400);
  assertEquals((await api.get(`${path}?keys_cursor=not-a-cursor`)).status, 400);
  const zonesCursor = pageOf(await api.get("/zones?limit=1")).next ?? "x";
  assertEquals((await api.get(`${path}?keys_cursor=${zonesCursor}`)).status, 400);
  const both = await api.get(
    `${path}?keys_limit=1&keys_offset=1&keys_cursor=${first.body.keys_next_cursor}`,
  );
  assertEquals([both.status, both.body.error], [
    400,
    'Give "keys_cursor" or "keys_offset", not both',
  ]);
});
