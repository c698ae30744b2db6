/// <reference lib="deno.worker" />
/**
 * Worker thread of the heartbeat verifier pool: loads its own instance of the
 * attestation core, then answers batches of jobs with verdicts in order.
 */
import { loadCore } from "./core.ts";
import { Ed25519Verifier } from "./ed25519.ts";
import type { VerifyJob } from "./verifier_pool.ts";
import { type Verdict, verifyHeartbeat } from "./verify_heartbeat.ts";
import type { Core } from "./core.ts";

let core: Core | null = null;
const verifier = new Ed25519Verifier();

self.onmessage = async (
  e: MessageEvent<{ wasmPath?: string; id?: number; jobs?: VerifyJob[]; crash?: boolean }>,
) => {
  // For tests of the pool's recovery: fail outside any job, as a real crash would.
  if (e.data.crash) throw new Error("Verifier worker crash requested");
  if (e.data.wasmPath !== undefined) {
    try {
      core = await loadCore(new URL(e.data.wasmPath));
      self.postMessage({ ready: true });
    } catch (err) {
      self.postMessage({ error: (err as Error).message });
    }
    return;
  }
  const verdicts = e.data.jobs!.map((j): Verdict => {
    try {
      // The request thread validated this text before posting it.
      const hb = typeof j.hb === "string" ? JSON.parse(j.hb) : j.hb;
      return verifyHeartbeat(hb, j.session, j.now, core!, verifier);
    } catch {
      // One bad job must not take its batch down: it is a rejection, counted as internal.
      return { ok: false, reason: "internal_error" };
    }
  });
  self.postMessage({ id: e.data.id, verdicts });
};
