/**
 * The browser client's attestation loop under Deno, against a real
 * attestation listener and the compiled core: every client-state rule, the
 * restart after a rejection, and the backoff after transport failures. Time
 * is driven by hand through a fake timer; the pointer paths come from the
 * reference client's humanPath().
 */
import { humanPath } from "../lib/attest/client.ts";
import type { AttestCore } from "../wasm/glue.ts";
import type { EntropyEvent } from "../lib/attest/canonical.ts";
import { assert, assertEquals, assertNotEquals } from "../tests/assert.ts";
import { loadTestCore } from "../tests/helpers/attest_core.ts";
import { startTestServer, type TestServer } from "../tests/helpers/test_server.ts";
import {
  type AttestStatus,
  BrowserClient,
  type Post,
  RETRY_BASE_MS,
  type Timer,
} from "./browser_client.ts";

interface Pending {
  fn: () => Promise<void>;
  ms: number;
}

/** A timer that fires only when the test says so. */
class FakeTimer implements Timer {
  pending: Pending | null = null;
  set(fn: () => Promise<void>, ms: number): unknown {
    assert(this.pending === null, "the client scheduled two timers at once");
    this.pending = { fn, ms };
    return this.pending;
  }
  clear(handle: unknown): void {
    if (this.pending === handle) this.pending = null;
  }
  /** Fires the pending timer and waits for the work it started. */
  async fire(): Promise<number> {
    const p = this.pending;
    assert(p, "nothing is scheduled");
    this.pending = null;
    await p.fn();
    return p.ms;
  }
}

/** Samples the test hands out; the client takes them at each heartbeat. */
class FakeSamples {
  queue: EntropyEvent[] = [];
  attached = false;
  taken: EntropyEvent[][] = [];
  attach() {
    this.attached = true;
  }
  detach() {
    this.attached = false;
    this.queue = [];
  }
  take() {
    const out = this.queue;
    this.queue = [];
    this.taken.push(out);
    return out;
  }
  giveBack(events: EntropyEvent[]) {
    this.queue = events.concat(this.queue);
  }
  move() {
    this.queue = humanPath(Date.now());
  }
}

interface Rig {
  t: TestServer;
  client: BrowserClient;
  timer: FakeTimer;
  samples: FakeSamples;
  /** Every request the client made, with the answer it got (null for a thrown failure). */
  log: { path: string; body: Record<string, unknown>; status: number | null }[];
  /** Replaces the next answer(s): return a value to use it, undefined to pass through. */
  intercept:
    | ((path: string, real: () => Promise<{ status: number; body: unknown }>) =>
      | Promise<{ status: number; body: unknown } | undefined>
      | undefined)
    | null;
  statuses: AttestStatus[];
  /** The client's core instance, once loaded. */
  core: AttestCore | null;
  /** Starts and waits until the first session exists. */
  started(): Promise<AttestStatus>;
  row(sessionId: string): Record<string, unknown> | undefined;
}

function rig(t: TestServer): Rig {
  const timer = new FakeTimer();
  const samples = new FakeSamples();
  const r = {
    t,
    timer,
    samples,
    log: [],
    intercept: null,
    statuses: [],
  } as unknown as Rig;
  const realPost: Post = async (path, body) => {
    const res = await fetch(`${t.attest}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  const post: Post = async (path, body, signal) => {
    const entry = { path, body: body as Record<string, unknown>, status: null as number | null };
    r.log.push(entry);
    const real = () => realPost(path, body, signal);
    const res = (await r.intercept?.(path, real)) ?? await real();
    entry.status = res.status;
    return res;
  };
  r.client = new BrowserClient({
    loadCore: async () => (r.core = await loadTestCore()),
    post,
    samples,
    fingerprint: () => ({
      aspectRatio: (16 / 9).toFixed(10),
      devicePixelRatio: "1",
      hardwareConcurrency: 4,
    }),
    timer,
  });
  r.client.onStatus((s) => r.statuses.push(s));
  r.started = async () => {
    r.client.start();
    for (let i = 0; i < 200 && r.client.status.state !== "active"; i++) {
      await new Promise((res) => setTimeout(res, 10));
    }
    assertEquals(r.client.status.state, "active");
    return r.client.status;
  };
  r.row = (sessionId) =>
    t.store.get<Record<string, unknown>>(
      "SELECT * FROM attest_sessions WHERE session_id = ?",
      sessionId,
    );
  return r;
}

const ENV = { PALISADE_ATTEST_HB_MIN_MS: "1500", PALISADE_ATTEST_HB_MAX_MS: "2500" };

Deno.test("BrowserClient: accepted heartbeats advance chain, salt, step and gene state in step with the server", async () => {
  await using t = await startTestServer({ env: ENV });
  const r = rig(t);
  const first = await r.started();
  assert(r.samples.attached);
  assertEquals(r.log[0].path, "/init");
  assert(r.timer.pending!.ms >= 1500 && r.timer.pending!.ms <= 2500, "jitter within min..max");
  for (let i = 1; i <= 4; i++) {
    r.samples.move();
    await r.timer.fire();
    assertEquals(r.client.status.lastResult, "accepted", `heartbeat ${i}`);
    assertEquals(r.client.status.chainLength, i);
    const row = r.row(first.sessionId!)!;
    assertEquals(row.chain_length, i);
    // The next request must carry the server's head, step and the signed payload it checks.
    const hb = r.log[r.log.length - 1].body;
    assertEquals(hb.mutation_step, i);
    assert(r.timer.pending!.ms >= 1500 && r.timer.pending!.ms <= 2500);
  }
  assertEquals(r.client.status.sessionId, first.sessionId);
  assertEquals(r.client.status.restarts, 0);
  // The fourth heartbeat's prev_hash was the server's head after the third: rules 1 and 2 hold.
  assertEquals(r.log.filter((e) => e.path === "/init").length, 1);
  r.client.stop();
  assertEquals(r.client.status.state, "stopped");
  assertEquals(r.timer.pending, null);
  assert(!r.samples.attached);
});

Deno.test("BrowserClient: a rejected heartbeat discards the preview and restarts with a new key and session", async () => {
  await using t = await startTestServer({ env: ENV });
  const r = rig(t);
  const first = await r.started();
  r.samples.move();
  await r.timer.fire();
  assertEquals(r.client.status.chainLength, 1);
  // No pointer movement: the server rejects; the client must not advance anything.
  await r.timer.fire();
  const inits = r.log.filter((e) => e.path === "/init");
  assertEquals(inits.length, 2);
  assertNotEquals(inits[1].body.public_key, inits[0].body.public_key);
  const now = r.client.status;
  assertEquals(now.state, "active");
  assertEquals(now.lastResult, "rejected");
  assertEquals(now.restarts, 1);
  assertEquals(now.chainLength, 0);
  assertNotEquals(now.sessionId, first.sessionId);
  assertEquals(r.row(first.sessionId!)!.chain_length, 1);
  assert(r.statuses.some((s) => s.state === "restarting"));
  // The new session works from its first heartbeat: nothing of the old one leaked in.
  r.samples.move();
  await r.timer.fire();
  assertEquals(r.client.status.lastResult, "accepted");
  assertEquals(r.client.status.chainLength, 1);
  assertEquals(r.row(now.sessionId!)!.chain_length, 1);
  r.client.stop();
});

Deno.test("BrowserClient: a 200 answer missing one next-state field counts as a rejection", async () => {
  await using t = await startTestServer({ env: ENV });
  const r = rig(t);
  const first = await r.started();
  r.intercept = async (path, real) => {
    if (path !== "/hb") return undefined;
    const res = await real();
    const { next_mutation_order_b64: _, ...rest } = res.body as Record<string, unknown>;
    return { status: 200, body: rest };
  };
  r.samples.move();
  await r.timer.fire();
  r.intercept = null;
  // The server did advance; the client treated the answer as a rejection and started over.
  assertEquals(r.row(first.sessionId!)!.chain_length, 1);
  assertEquals(r.client.status.lastResult, "rejected");
  assertEquals(r.client.status.restarts, 1);
  assertNotEquals(r.client.status.sessionId, first.sessionId);
  r.samples.move();
  await r.timer.fire();
  assertEquals(r.client.status.lastResult, "accepted");
  r.client.stop();
});

Deno.test("BrowserClient: network failures keep the session, back off exponentially and resend the samples", async () => {
  await using t = await startTestServer({ env: ENV });
  const r = rig(t);
  const first = await r.started();
  let failures = 2;
  r.intercept = (path) => {
    if (path === "/hb" && failures-- > 0) throw new TypeError("Failed to fetch");
    return undefined;
  };
  r.samples.move();
  const path = r.samples.queue;
  await r.timer.fire();
  assertEquals(r.client.status.state, "active");
  assertEquals(r.client.status.sessionId, first.sessionId);
  assert(r.client.status.error?.includes("Failed to fetch"));
  const backoff1 = r.timer.pending!.ms;
  assert(backoff1 >= RETRY_BASE_MS / 2 && backoff1 <= RETRY_BASE_MS, `first backoff ${backoff1}`);
  await r.timer.fire();
  const backoff2 = r.timer.pending!.ms;
  assert(backoff2 >= RETRY_BASE_MS && backoff2 <= 2 * RETRY_BASE_MS, `second backoff ${backoff2}`);
  await r.timer.fire();
  assertEquals(r.client.status.lastResult, "accepted");
  assertEquals(r.client.status.error, null);
  assertEquals(r.client.status.chainLength, 1);
  // The samples of the lost heartbeats went out with the one that arrived.
  assertEquals(r.log[r.log.length - 1].body.entropy_data, { events: path });
  assert(r.timer.pending!.ms >= 1500, "back to the normal interval after a success");
  r.client.stop();
});

Deno.test("BrowserClient: init failures retry with backoff; a module that cannot load is an error state", async () => {
  await using t = await startTestServer({ env: ENV });
  const r = rig(t);
  let failures = 1;
  r.intercept = (path) =>
    path === "/init" && failures-- > 0
      ? Promise.resolve({ status: 500, body: { error: "Session creation failed", status: 500 } })
      : undefined;
  r.client.start();
  for (let i = 0; i < 200 && r.timer.pending === null; i++) {
    await new Promise((res) => setTimeout(res, 10));
  }
  assertEquals(r.client.status.state, "initializing");
  assert(r.client.status.error?.includes("500"));
  assert(r.timer.pending!.ms >= RETRY_BASE_MS / 2);
  await r.timer.fire();
  assertEquals(r.client.status.state, "active");
  r.client.stop();

  const broken = new BrowserClient({
    loadCore: () => Promise.reject(new WebAssembly.CompileError("Refused to compile")),
    post: () => Promise.reject(new Error("unreachable")),
    samples: new FakeSamples(),
    fingerprint: () => ({
      aspectRatio: "1.0000000000",
      devicePixelRatio: "1",
      hardwareConcurrency: 1,
    }),
    timer: new FakeTimer(),
  });
  broken.start();
  await new Promise((res) => setTimeout(res, 0));
  assertEquals(broken.status.state, "error");
  assert(broken.status.error?.includes("Refused to compile"));
});

Deno.test("BrowserClient: stop() during a heartbeat ignores its answer and zeroes the key", async () => {
  await using t = await startTestServer({ env: ENV });
  const r = rig(t);
  const first = await r.started();
  let release!: () => void;
  const gate = new Promise<void>((res) => (release = res));
  r.intercept = async (path, real) => {
    if (path !== "/hb") return undefined;
    await gate;
    return await real();
  };
  r.samples.move();
  const beat = r.timer.fire();
  await new Promise((res) => setTimeout(res, 20));
  r.client.stop();
  release();
  await beat;
  assertEquals(r.client.status.state, "stopped");
  assertEquals(r.client.status.chainLength, 0);
  assertEquals(r.client.status.lastResult, null);
  assertEquals(r.timer.pending, null);
  assertEquals(r.core!.get_public_key(), "");
  // A new start() is a new session with a new key.
  r.intercept = null;
  const again = await r.started();
  assertNotEquals(again.sessionId, first.sessionId);
  r.client.stop();
});
