/**
 * Heartbeats meeting each other: writes of other threads, races between
 * copies of one heartbeat, serving threads, the shared session cache.
 */
import { assert, assertEquals } from "../assert.ts";
import type { AttestClient } from "../../lib/attest/client.ts";
import type { RowHint } from "../../lib/store/row_hint.ts";
import { SharedSessionCache } from "../../lib/attest/session_cache.ts";
import { counterChanges, postHb, startAttestRig } from "../helpers/attest_server.ts";
import { burst } from "../helpers/burst.ts";
import { waitFor } from "../helpers/wait.ts";

/** Spacing that keeps five heartbeats per session inside the rate limit. */
const GAP_MS = 2100;

Deno.test("a heartbeat whose commit finds another thread writing is accepted once that write ends", async () => {
  await using rig = await startAttestRig();
  const client = await rig.client();
  // Another thread takes the services' shared write lock, holds it for 300 ms
  // and notes (in shared memory) when it let go.
  const code = `
    import { SharedMutex } from ${
    JSON.stringify(import.meta.resolve("../../lib/attest/shared_mutex.ts"))
  };
    self.onmessage = ({ data: { lock, releasedAt } }) => {
      const m = new SharedMutex(lock);
      m.lock();
      self.postMessage("locked");
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
      new Float64Array(releasedAt)[0] = performance.timeOrigin + performance.now();
      m.unlock();
    };`;
  const url = URL.createObjectURL(new Blob([code], { type: "text/javascript" }));
  const holder = new Worker(url, { type: "module" });
  try {
    const releasedAt = new SharedArrayBuffer(8);
    const locked = new Promise((resolve, reject) => {
      holder.onmessage = resolve;
      holder.onerror = reject;
    });
    holder.postMessage({ lock: rig.t.services.attestSqlite!.shared.writeLock, releasedAt });
    await locked;
    rig.clock.advance(GAP_MS);
    assert(await client.heartbeat(), "accepted, not lost, though its commit found the lock taken");
    const answeredAt = performance.timeOrigin + performance.now();
    const released = new Float64Array(releasedAt)[0];
    assert(released > 0 && answeredAt >= released, "answered after the other write ended");
    rig.clock.advance(GAP_MS);
    assert(await client.heartbeat(), "the chain goes on");
    assertEquals(rig.row(client.session!.session_id)!.chain_length, 2);
  } finally {
    holder.terminate();
    URL.revokeObjectURL(url);
  }
});

// Ten sessions, five copies each: five per session pass the rate limit (check 1), so every copy
// reaches the checks. burst() makes them all arrive before the listener reads any, so each copy
// is checked against the state before its session's winner commits: the losers pass every check
// and lose at the compare-and-set, which alone stands between them and a second acceptance.
Deno.test("50 concurrent heartbeats, five copies for each of ten sessions: one per session is accepted, the others lose at the compare-and-set", async () => {
  await using rig = await startAttestRig();
  const clients: AttestClient[] = [];
  for (let i = 0; i < 10; i++) clients.push(await rig.client());
  rig.clock.advance(GAP_MS);
  const copies = clients.flatMap((c) => {
    const body = JSON.stringify(c.prepareHeartbeat().request);
    return Array.from({ length: 5 }, () => ({ method: "POST", path: "/hb", body }));
  });
  const before = await rig.counters();
  const answers = await burst(rig.t.attest, copies);
  assertEquals(answers.map((a) => a.status), copies.map(() => 200));
  clients.forEach((c, i) => {
    const mine = answers.slice(i * 5, i * 5 + 5);
    assertEquals(mine.filter((a) => JSON.parse(a.body).next_salt !== undefined).length, 1);
    assertEquals(rig.row(c.session!.session_id)!.chain_length, 1);
  });
  assertEquals(counterChanges(before, await rig.counters()), { accepted: 10, conflict: 40 });
});

Deno.test({
  name:
    "with serving threads: a chain across threads, one shared rate limit, summed counters, one winner per race, a crashed thread replaced",
  sanitizeResources: false,
  async fn() {
    // The threads keep the real clock; the rig's clock only dates the clients' heartbeats.
    await using rig = await startAttestRig({ env: { PALISADE_ATTEST_WORKERS: "2" } });
    const threads = rig.t.server.attestThreads!;
    assertEquals(threads.size, 2);
    // A client without idle connections: every request opens a connection, which the kernel gives to either thread.
    using http = Deno.createHttpClient({ poolMaxIdlePerHost: 0 });
    const post = async (body: unknown) => {
      const res = await fetch(`${rig.t.attest}/hb`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
        client: http,
      });
      return await res.json();
    };
    const client = await rig.client();
    for (let i = 1; i <= 4; i++) {
      const p = client.prepareHeartbeat();
      const body = await post(p.request);
      assert(client.isAccepted(body), `heartbeat ${i}`);
      client.commit(p, body);
    }
    assertEquals(rig.row(client.session!.session_id)!.chain_length, 4);
    assertEquals(Number(/attest_heartbeats_accepted_total (\d+)/.exec(await rig.metrics())![1]), 4);

    // Six heartbeats for one unknown session over fresh connections: the sixth meets the limit.
    const unknown = { ...client.prepareHeartbeat().request, session_id: "7e".repeat(32) };
    const limitedBefore = await rig.rejected("rate_limit");
    const unknownBefore = await rig.rejected("unknown_session");
    for (let i = 0; i < 6; i++) await post(unknown);
    assertEquals(await rig.rejected("unknown_session"), unknownBefore + 5);
    assertEquals(await rig.rejected("rate_limit"), limitedBefore + 1);

    // Five copies pass the rate limit. A copy that a thread checks after another thread committed
    // the winner loses at the chain check (5) instead of the compare-and-set: both are losses.
    const racer = await rig.client();
    const same = racer.prepareHeartbeat().request;
    const before = await rig.counters();
    const results = await Promise.all(Array.from({ length: 5 }, () => post(same)));
    assertEquals(results.filter((r) => r.next_salt !== undefined).length, 1);
    assertEquals(rig.row(racer.session!.session_id)!.chain_length, 1);
    const { accepted, conflict = 0, hash_chain = 0, ...other } = counterChanges(
      before,
      await rig.counters(),
    );
    assertEquals({ accepted, lost: conflict + hash_chain, other }, {
      accepted: 1,
      lost: 4,
      other: {},
    });

    const replaced = threads.replaced;
    threads.crashOne();
    await waitFor(() => threads.replaced > replaced && threads.size === 2, 10_000, 20);
    assertEquals(threads.replaced, replaced + 1, "a thread crashed and another took its place");
    assertEquals(threads.size, 2, "as many threads serve as before");
    const after = await rig.client();
    const p = after.prepareHeartbeat();
    assert(after.isAccepted(await post(p.request)), "served after the restart");
  },
});

Deno.test("an outdated copy in the shared session cache costs a database read, never a wrong verdict", async () => {
  await using rig = await startAttestRig();
  const client = await rig.client();
  const sid = client.session!.session_id;
  const initial = rig.row(sid)!;
  rig.clock.advance(GAP_MS);
  const first = client.prepareHeartbeat();
  assert(await client.send(first));
  // Put the session's initial state back into the cache, as if the acceptance had not reached it.
  const cache = new SharedSessionCache(rig.t.services.attestSqlite!.shared.sessionCache!);
  cache.put({
    session_id: sid,
    public_key: initial.public_key as string,
    salt: initial.salt as string,
    last_hash: initial.last_hash as string,
    pending_step: initial.pending_step as number,
    pending_order: initial.pending_order as string,
    gene_state: initial.gene_state as Uint8Array,
    chain_length: initial.chain_length as number,
    expires_at: initial.expires_at as number,
    hint: rig.t.store.get<{ rowid: RowHint }>(
      "SELECT rowid FROM attest_sessions WHERE session_id = ?",
      sid,
    )!.rowid,
  });
  // The replayed first heartbeat matches that copy, passes every check against it, and still
  // loses the compare-and-set in the table.
  const after = rig.row(sid);
  const conflicts = await rig.rejected("conflict");
  assertEquals((await postHb(rig, first.request)).text, '{"status":"ok"}');
  assertEquals(await rig.rejected("conflict"), conflicts + 1);
  assertEquals(rig.row(sid), after, "unchanged");
  // The next valid heartbeat does not match the copy, so the table is read and it is accepted.
  rig.clock.advance(GAP_MS);
  assert(await client.heartbeat(), "accepted from the table's state");
  assertEquals(rig.row(sid)!.chain_length, 2);
});
