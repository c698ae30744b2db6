import { assert, assertEquals } from "../../tests/assert.ts";
import { DEFAULT_ATTEST_WASM } from "./core.ts";
import { WorkerVerifier } from "./verifier_pool.ts";
import type { HeartbeatRequest } from "./attest.ts";

const hb: HeartbeatRequest = {
  session_id: "ab".repeat(32),
  prev_hash: "cd".repeat(32),
  timestamp: 1,
  entropy_data: { events: [] },
  stack_state: { stack: [], ip: 0 },
  fingerprint: { aspectRatio: "1", devicePixelRatio: "1", hardwareConcurrency: 1 },
  mutation_step: 1,
  gene_commitment: "ef".repeat(32),
  signature: "00".repeat(64),
};
const session = {
  session_id: hb.session_id,
  // RFC 8032 test 1 public key: valid, but the zero signature does not verify under it.
  public_key: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
  salt: "00".repeat(16),
  last_hash: hb.prev_hash,
  pending_step: 1,
  pending_order: "AQEBAAAAAAA=",
  gene_state: new Uint8Array(64),
};

function within<T>(p: Promise<T>, ms: number): Promise<T | "timeout"> {
  return Promise.race([p, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), ms))]);
}

Deno.test({
  name:
    "WorkerVerifier answers every job when a worker dies, then verifies again with a replacement",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const pool = await WorkerVerifier.start(1, DEFAULT_ATTEST_WASM);
    try {
      assertEquals(await pool.verify(hb, session, 1), { ok: false, reason: "signature" });
      pool.crashOne();
      const during = await within(pool.verify(hb, session, 1), 5000);
      assert(during !== "timeout", "a job sent while its worker died must still be answered");
      assert(!during.ok);
      let after: unknown = "timeout";
      for (
        let i = 0;
        i < 50 && (after === "timeout" || (after as { reason: string }).reason !== "signature");
        i++
      ) {
        await new Promise((r) => setTimeout(r, 100));
        after = await within(pool.verify(hb, session, 1), 5000);
      }
      assertEquals(
        after,
        { ok: false, reason: "signature" },
        "a replacement worker gives real verdicts",
      );
      assertEquals(pool.size, 1);
    } finally {
      pool.close();
    }
  },
});
