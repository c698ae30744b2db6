/// <reference lib="deno.worker" />
/**
 * Worker thread of the heartbeat verifier pool: loads its own instance of the
 * attestation core, then answers batches of jobs with verdicts in order.
 */
import { loadCore } from "./core.ts";
import { Ed25519Verifier } from "./ed25519.ts";
import type { VerifyJob } from "./verifier_pool.ts";
import { verifyHeartbeat } from "./verify_heartbeat.ts";
import type { Core } from "./core.ts";

let core: Core | null = null;
const verifier = new Ed25519Verifier();

self.onmessage = async (
  e: MessageEvent<{ wasmPath?: string; id?: number; jobs?: VerifyJob[] }>,
) => {
  if (e.data.wasmPath !== undefined) {
    try {
      core = await loadCore(new URL(e.data.wasmPath));
      self.postMessage({ ready: true });
    } catch (err) {
      self.postMessage({ error: (err as Error).message });
    }
    return;
  }
  const verdicts = e.data.jobs!.map((j) =>
    // The request thread validated this text before posting it.
    verifyHeartbeat(
      typeof j.hb === "string" ? JSON.parse(j.hb) : j.hb,
      j.session,
      j.now,
      core!,
      verifier,
    )
  );
  self.postMessage({ id: e.data.id, verdicts });
};
