import { assert, assertEquals } from "../../tests/assert.ts";
import { createSessionCacheTable, SharedSessionCache } from "./session_cache.ts";
import type { RowHint } from "../store/row_hint.ts";
import type { HeartbeatSnapshot } from "./session_repo.ts";

const GENE = 64;

function snapshot(id: string, step: number, fill = step): HeartbeatSnapshot {
  return {
    session_id: id,
    public_key: "ab".repeat(32),
    salt: (fill % 256).toString(16).padStart(2, "0").repeat(16),
    last_hash: ((fill * 7) % 256).toString(16).padStart(2, "0").repeat(32),
    pending_step: step,
    // Version 1, 2 rounds, 1 op (kind 0, offset 1, length 2, arg 3).
    pending_order: "AQIBAAEAAgM=",
    gene_state: new Uint8Array(GENE).fill(fill % 256),
    chain_length: step - 1,
    expires_at: 1_700_000_000_000 + step,
    // Varies with the step too, so that a torn read of it would show.
    hint: (1000 + step) as RowHint,
  };
}

function cache(megabytes = 1) {
  return new SharedSessionCache(createSessionCacheTable(megabytes, GENE)!);
}

Deno.test("session cache: a stored state comes back field for field, its gene copied into the caller's array", () => {
  const c = cache();
  const s = snapshot("0a".repeat(32), 3);
  c.put(s);
  const gene = new Uint8Array(GENE);
  const got = c.get(s.session_id, gene);
  assertEquals(got, s);
  assert(got!.gene_state === gene, "the caller's array");
  assertEquals(c.get("0b".repeat(32), gene), undefined, "another session");
  assertEquals(c.get(s.session_id.toUpperCase(), gene), undefined, "ids compare exactly");
  assertEquals(c.get("zz".repeat(32), gene), undefined, "not hex");
});

Deno.test("session cache: a later state replaces the earlier one, and forget() empties the slot", () => {
  const c = cache();
  const id = "1c".repeat(32);
  c.put(snapshot(id, 1));
  c.put(snapshot(id, 2));
  assertEquals(c.get(id, new Uint8Array(GENE))?.pending_step, 2);
  c.forget("1d".repeat(32)); // another session: its slot is elsewhere or not its own
  assertEquals(c.get(id, new Uint8Array(GENE))?.pending_step, 2);
  c.forget(id);
  assertEquals(c.get(id, new Uint8Array(GENE)), undefined);
});

Deno.test("session cache: eight sessions share a bucket; a ninth evicts the one expiring first", () => {
  const c = cache();
  // The bucket is the id's first 32 bits modulo the number of buckets: these nine share bucket 5.
  const buckets = c.capacity / 8;
  const id = (k: number) =>
    (k * buckets + 5).toString(16).padStart(8, "0") +
    (k + 1).toString(16).padStart(2, "0").repeat(28);
  const ids = Array.from({ length: 9 }, (_, k) => id(k));
  const gene = new Uint8Array(GENE);
  // The fourth expires first.
  ids.slice(0, 8).forEach((s, k) =>
    c.put({ ...snapshot(s, 1), expires_at: k === 3 ? 500 : 1_000 + k })
  );
  for (const s of ids.slice(0, 8)) assertEquals(c.get(s, gene)?.session_id, s, "all eight held");
  c.put({ ...snapshot(ids[8], 1), expires_at: 3_000 });
  assertEquals(c.get(ids[3], gene), undefined, "evicted: it expires first");
  for (const s of [...ids.slice(0, 3), ...ids.slice(4)]) {
    assertEquals(c.get(s, gene)?.session_id, s, "the others stay");
  }
  c.put({ ...snapshot(ids[0], 2), expires_at: 4_000 });
  assertEquals(c.get(ids[0], gene)?.pending_step, 2, "rewritten in its own slot");
  assertEquals(c.get(ids[8], gene)?.session_id, ids[8]);
  c.forget(ids[5]);
  assertEquals(c.get(ids[5], gene), undefined, "forgotten");
  c.put({ ...snapshot(ids[3], 2), expires_at: 5_000 });
  assertEquals(c.get(ids[3], gene)?.pending_step, 2, "back, in the slot forget() emptied");
  for (const s of [...ids.slice(0, 3), ...ids.slice(6)]) {
    assertEquals(c.get(s, gene)?.session_id, s, "nobody else evicted");
  }
});

Deno.test("session cache: a state it cannot hold leaves the slot empty", () => {
  const c = cache();
  const id = "2e".repeat(32);
  c.put(snapshot(id, 1));
  c.put({ ...snapshot(id, 2), gene_state: new Uint8Array(GENE * 2) });
  assertEquals(c.get(id, new Uint8Array(GENE)), undefined, "another gene size");
  c.put(snapshot(id, 3));
  c.put({ ...snapshot(id, 4), salt: "not hex" });
  assertEquals(c.get(id, new Uint8Array(GENE)), undefined, "a malformed field");
  c.put({ ...snapshot(id, 5), pending_order: "AQIBAAEAAgM" });
  assertEquals(c.get(id, new Uint8Array(GENE)), undefined, "an order that is not base64");
});

Deno.test("session cache: no table for 0 MiB or a gene size the core refuses", () => {
  assertEquals(createSessionCacheTable(0, 512), null);
  assertEquals(createSessionCacheTable(32, 63), null);
  assertEquals(createSessionCacheTable(32, 65537), null);
  assert(createSessionCacheTable(32, 512));
});

Deno.test("session cache: a reader never sees a mix of two states while another thread rewrites the slot", async () => {
  const table = createSessionCacheTable(1, GENE)!;
  const id = "3f".repeat(32);
  const code = `
    import { SharedSessionCache } from ${JSON.stringify(import.meta.resolve("./session_cache.ts"))};
    self.onmessage = ({ data: { table, id, stop } }) => {
      const c = new SharedSessionCache(table);
      const flag = new Int32Array(stop);
      for (let i = 0; Atomics.load(flag, 0) === 0; i++) {
        const step = 1 + (i % 2);
        const hex = (b) => b.toString(16).padStart(2, "0");
        c.put({
          session_id: id,
          public_key: "ab".repeat(32),
          salt: hex(step).repeat(16),
          last_hash: hex((step * 7) % 256).repeat(32),
          pending_step: step,
          pending_order: "AQIBAAEAAgM=",
          gene_state: new Uint8Array(${GENE}).fill(step),
          chain_length: step - 1,
          expires_at: 1_700_000_000_000 + step,
          hint: 1000 + step,
        });
        if (i === 0) self.postMessage("writing");
      }
      self.postMessage("stopped");
    };`;
  const url = URL.createObjectURL(new Blob([code], { type: "text/javascript" }));
  const worker = new Worker(url, { type: "module" });
  const stop = new SharedArrayBuffer(4);
  try {
    const message = () => new Promise((r) => (worker.onmessage = (e) => r(e.data)));
    const started = message();
    worker.postMessage({ table, id, stop });
    assertEquals(await started, "writing");
    const reader = new SharedSessionCache(table);
    const gene = new Uint8Array(GENE);
    const seen = new Map<string, number>();
    const deadline = performance.now() + 300;
    while (performance.now() < deadline) {
      const got = reader.get(id, gene);
      if (!got) {
        seen.set("none", (seen.get("none") ?? 0) + 1);
        continue;
      }
      const expected = snapshot(id, got.pending_step);
      assertEquals({ ...got, gene_state: [...got.gene_state] }, {
        ...expected,
        gene_state: [...expected.gene_state],
      });
      seen.set(String(got.pending_step), (seen.get(String(got.pending_step)) ?? 0) + 1);
    }
    const stopped = message();
    Atomics.store(new Int32Array(stop), 0, 1);
    assertEquals(await stopped, "stopped");
    assert(seen.get("1") && seen.get("2"), `both states read whole: ${JSON.stringify([...seen])}`);
  } finally {
    worker.terminate();
    URL.revokeObjectURL(url);
  }
});
