/**
 * Paged listings of the tunnel API (docs/api.md, "Pagination"; issue 26,
 * point 4): /peers and /audit walked by cursor over a real listener while
 * items are added between pages, each page timed around the request on
 * loopback; /interfaces paged by name; the 400 answers.
 */
import { assert, assertEquals } from "../assert.ts";
import { type ApiClient, apiClient, type ApiResponse } from "../helpers/api_client.ts";
import { rawRows } from "../helpers/raw_sql.ts";
import { startTestServer, type TestServer } from "../helpers/test_server.ts";
import { SqliteAuditRepo } from "../../lib/audit/audit_repo.ts";
import { SqliteAsync } from "../../lib/store/sqlite_async.ts";
import { sqliteTunnelRepos } from "../../lib/tunnel/tunnel_repos.ts";
import { timedRead } from "../helpers/timed_read.ts";

const SEEDED = 3000;
const PAGE = 500;
const PAGE_BUDGET_MS = 50;

interface Walk {
  ids: string[];
  pages: number;
  slowest: number;
  firstTotal: number;
}

/** Follows next_cursor from the first page of `path` to the last, timing each request (timedRead). */
async function walk(
  api: ApiClient,
  path: string,
  key: string,
  onPage?: () => Promise<void>,
): Promise<Walk> {
  const out: Walk = { ids: [], pages: 0, slowest: 0, firstTotal: -1 };
  let cursor: string | null = null;
  // Bounded: twice the pages the seeded items need, plus room for the inserts.
  for (let n = 0; n < 2 * (SEEDED / PAGE) + 10; n++) {
    const url: string = `${path}${path.includes("?") ? "&" : "?"}limit=${PAGE}` +
      (cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`);
    const { result: res, ms: took } = await timedRead(() => api.get(url), PAGE_BUDGET_MS);
    assertEquals(res.status, 200, JSON.stringify(res.body).slice(0, 300));
    out.slowest = Math.max(out.slowest, took);
    if (out.firstTotal < 0) out.firstTotal = res.body.total;
    const items = res.body[key] as { id: string | number }[];
    assert(items.length <= PAGE);
    out.ids.push(...items.map((x) => String(x.id)));
    out.pages++;
    cursor = res.body.next_cursor;
    if (cursor === null) return out;
    await onPage?.();
  }
  throw new Error("the walk did not end");
}

/** A peer name for `i`; the digits are scrambled so names land all over the order. */
function peerName(prefix: string, i: number): string {
  return `${prefix}${((i * 7919) % 100_003).toString(36)}`;
}

/** Three interfaces over the API, then SEEDED peers spread over them straight into the store. */
async function seedPeers(t: TestServer, api: ApiClient): Promise<string[]> {
  const ifaces: string[] = [];
  for (const [name, net] of [["wg1", 8], ["wg2", 9], ["wg3", 10]] as const) {
    const res = await api.post("/interfaces", { name, address_v4: `10.${net}.0.1/16` });
    assertEquals(res.status, 201);
    ifaces.push(res.body.id);
  }
  const { peerRepo } = sqliteTunnelRepos(t.store);
  const now = Date.now();
  await SqliteAsync.of(t.store).tx(async () => {
    for (let i = 0; i < SEEDED; i++) {
      const n = i % 3;
      await peerRepo.insert({
        id: crypto.randomUUID(),
        interface_id: ifaces[n],
        name: peerName("p", i),
        public_key: `${String(i).padStart(42, "A")}=`,
        private_key: null,
        preshared_key: null,
        address: `10.${8 + n}.${100 + (i >> 8)}.${i & 255}`,
        allowed_ips: null,
        dns: "",
        keepalive: null,
        mtu: null,
        profile: "full-tunnel",
        status: "enabled",
        created_at: now,
        updated_at: now,
      });
    }
  });
  return ifaces;
}

Deno.test({
  name:
    "3,000 peers page in under 50 ms a page, and a cursor walk meets every peer once while peers are created",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using t = await startTestServer();
    const api = apiClient(t.admin, { cookie: await t.login() });
    const ifaces = await seedPeers(t, api);
    const existing = rawRows<{ id: string }>(t.store, "peers", ["id"], "id")
      .map((r) => r.id);
    assertEquals(existing.length, SEEDED);
    // Warm the route once, so the timing below is of paging and not of the first compilation.
    assertEquals((await api.get("/peers?limit=1")).status, 200);

    // Between pages, create peers whose names sort all over the list, some before the cursor.
    let added = 0;
    const addSome = async () => {
      for (let k = 0; k < 3; k++, added++) {
        const res = await api.post(`/interfaces/${ifaces[added % 3]}/peers`, {
          name: peerName("n", added),
        });
        assertEquals(res.status, 201, JSON.stringify(res.body));
      }
    };
    const w = await walk(api, "/peers", "peers", addSome);

    assertEquals(w.firstTotal, SEEDED);
    assertEquals(new Set(w.ids).size, w.ids.length, "a peer was served twice");
    const served = new Set(w.ids);
    assertEquals(existing.filter((id) => !served.has(id)), [], "a seeded peer was not served");
    assert(w.pages >= SEEDED / PAGE, `only ${w.pages} pages`);
    assert(added > 0);
    assert(w.slowest < PAGE_BUDGET_MS, `the slowest page took ${w.slowest.toFixed(1)} ms`);

    // Filtered by interface, the walk serves exactly that interface's peers.
    const onWg2 = await walk(api, `/peers?interface_id=${ifaces[1]}`, "peers");
    const wg2 = rawRows<{ id: string }>(t.store, "peers", ["id"], "id", {
      interface_id: ifaces[1],
    }).map((r) => r.id);
    assertEquals(onWg2.ids.toSorted(), wg2);
    assert(onWg2.slowest < PAGE_BUDGET_MS, `the slowest page took ${onWg2.slowest.toFixed(1)} ms`);
  },
});

Deno.test({
  name:
    "3,000 audit records page newest first in under 50 ms a page; a walk serves every older record once while new ones are written",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using t = await startTestServer();
    const api = apiClient(t.admin, { cookie: await t.login() });
    const iface = (await api.post("/interfaces", { name: "wg1", address_v4: "10.8.0.1/16" }))
      .body;
    const repo = new SqliteAuditRepo(SqliteAsync.of(t.store));
    t.store.tx(() => {
      for (let i = 0; i < SEEDED; i++) {
        repo.appendNow({
          actor: "seed",
          event_type: i % 2 ? "seed.odd" : "seed.even",
          message: `Seed record ${i}`,
          resource_type: "seed",
          resource_id: String(i),
        }, Date.now());
      }
    });
    const before = rawRows<{ id: number }>(t.store, "audit", ["id"], "id DESC")
      .map((r) => String(r.id));
    assert(before.length >= SEEDED);
    assertEquals((await api.get("/audit?limit=1")).status, 200);

    // Each peer created between pages writes an audit record at the head of the trail.
    let added = 0;
    const addSome = async () => {
      for (let k = 0; k < 2; k++, added++) {
        const res = await api.post(`/interfaces/${iface.id}/peers`, { name: `new-${added}` });
        assertEquals(res.status, 201);
      }
    };
    const w = await walk(api, "/audit", "records", addSome);

    // Every record older than the walk, exactly once, newest first; the new ones sort before page 1.
    assertEquals(w.ids, before);
    assertEquals(w.firstTotal, before.length);
    assert(added > 0);
    assert(w.slowest < PAGE_BUDGET_MS, `the slowest page took ${w.slowest.toFixed(1)} ms`);
    const now = await api.get("/audit?limit=1");
    assertEquals(now.body.total, before.length + added);

    // Filtered, the walk takes the filter's index from the cursor on.
    const odd = await walk(api, "/audit?event_type=seed.odd", "records");
    assertEquals(odd.ids.length, SEEDED / 2);
    assert(odd.slowest < PAGE_BUDGET_MS, `the slowest page took ${odd.slowest.toFixed(1)} ms`);
  },
});

Deno.test("GET /interfaces pages by name; unpaged it lists every interface with the total", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  for (const [name, net] of [["wg3", 3], ["wg1", 1], ["wg5", 5], ["wg2", 2], ["wg4", 4]]) {
    assertEquals(
      (await api.post("/interfaces", { name, address_v4: `10.${net}.0.1/24` })).status,
      201,
    );
  }
  const names = (r: ApiResponse) => r.body.interfaces.map((i: { name: string }) => i.name);
  const all = await api.get("/interfaces");
  assertEquals(names(all), ["wg1", "wg2", "wg3", "wg4", "wg5"]);
  assertEquals([all.body.total, all.body.next_cursor], [5, null]);

  const first = await api.get("/interfaces?limit=2");
  assertEquals([names(first), first.body.total], [["wg1", "wg2"], 5]);
  // An interface created mid-walk before the cursor does not shift the next page.
  assertEquals(
    (await api.post("/interfaces", { name: "wg0x", address_v4: "10.6.0.1/24" })).status,
    201,
  );
  const second = await api.get(`/interfaces?limit=2&cursor=${first.body.next_cursor}`);
  assertEquals(names(second), ["wg3", "wg4"]);
  const last = await api.get(`/interfaces?limit=2&cursor=${second.body.next_cursor}`);
  assertEquals([names(last), last.body.next_cursor], [["wg5"], null]);
  assertEquals(names(await api.get("/interfaces?limit=2&offset=4")), ["wg4", "wg5"]);
  assertEquals((await api.get("/interfaces?limit=1000")).status, 200);
});

Deno.test("tunnel listings answer 400 for a limit over 1000, a bad or foreign cursor, and cursor with offset", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  const a = (await api.post("/interfaces", { name: "wg1", address_v4: "10.8.0.1/24" })).body;
  await api.post("/interfaces", { name: "wg2", address_v4: "10.9.0.1/24" });
  for (const name of ["a", "b", "c"]) await api.post(`/interfaces/${a.id}/peers`, { name });
  const peersCursor = (await api.get("/peers?limit=1")).body.next_cursor;
  const ifaceCursor = (await api.get("/interfaces?limit=1")).body.next_cursor;
  const auditCursor = (await api.get("/audit?limit=1")).body.next_cursor;
  assert(peersCursor && ifaceCursor && auditCursor);
  for (
    const [path, cursor] of [
      ["/peers", peersCursor],
      [`/interfaces/${a.id}/peers`, peersCursor],
      ["/audit", auditCursor],
      ["/interfaces", ifaceCursor],
    ]
  ) {
    assertEquals((await api.get(`${path}?limit=1001`)).status, 400, path);
    assertEquals((await api.get(`${path}?limit=1000`)).status, 200, path);
    assertEquals((await api.get(`${path}?limit=1&cursor=not-a-cursor`)).status, 400, path);
    const both = await api.get(`${path}?limit=1&offset=1&cursor=${cursor}`);
    assertEquals([both.status, both.body.error], [400, 'Give "cursor" or "offset", not both']);
    // Another listing's cursor is not taken.
    const foreign = path === "/interfaces" ? peersCursor : ifaceCursor;
    assertEquals((await api.get(`${path}?limit=1&cursor=${foreign}`)).status, 400, path);
  }
  // Peers by cursor: the same pages as by offset when nothing changes.
  const next = await api.get(`/peers?limit=1&cursor=${peersCursor}`);
  const byOffset = await api.get("/peers?limit=1&offset=1");
  assertEquals(next.body.peers[0].id, byOffset.body.peers[0].id);
  assertEquals([next.body.limit, next.body.offset, next.body.total], [1, 0, 3]);
});
