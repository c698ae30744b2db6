/**
 * Where heartbeat checks 4–12 run. Ed25519 verification and the gene
 * mutation are most of a heartbeat's CPU time; on a machine with more than
 * one core they run in worker threads, so the thread serving HTTP and SQLite
 * is not the bottleneck. Jobs are posted in batches (one message per
 * event-loop turn and worker) to keep the messaging cost per heartbeat small.
 * With no workers the same function runs inline.
 */
import { clearImmediate, setImmediate } from "node:timers";
import type { HeartbeatRequest } from "./attest.ts";
import type { Core } from "./core.ts";
import { Ed25519Verifier } from "./ed25519.ts";
import { type SessionSnapshot, type Verdict, verifyHeartbeat } from "./verify_heartbeat.ts";

/**
 * Jobs per message. Small batches let the request thread and the workers
 * overlap: with one large batch per loop turn they take turns instead.
 */
const BATCH = 8;

export interface HeartbeatVerifier {
  /** `json`, when given, is the already validated text `hb` was parsed from. */
  verify(
    hb: HeartbeatRequest,
    session: SessionSnapshot,
    now: number,
    json?: string,
  ): Promise<Verdict>;
  close(): void;
}

/** A job as posted to a worker: the request as JSON text when there is one (cheaper to copy). */
export interface VerifyJob {
  hb: HeartbeatRequest | string;
  session: SessionSnapshot;
  now: number;
}

/** Runs the checks on the calling thread. */
export class InlineVerifier implements HeartbeatVerifier {
  readonly #verifier = new Ed25519Verifier();
  constructor(private readonly core: Core) {}

  verify(hb: HeartbeatRequest, session: SessionSnapshot, now: number): Promise<Verdict> {
    return Promise.resolve(verifyHeartbeat(hb, session, now, this.core, this.#verifier));
  }

  close(): void {}
}

interface Pending {
  jobs: VerifyJob[];
  done: ((v: Verdict) => void)[];
}

/** Runs the checks in `size` worker threads. */
export class WorkerVerifier implements HeartbeatVerifier {
  readonly #workers: Worker[];
  readonly #inflight = new Map<number, ((v: Verdict) => void)[]>();
  #pending: Pending = { jobs: [], done: [] };
  #timer: ReturnType<typeof setImmediate> | null = null;
  #nextBatch = 0;
  #nextWorker = 0;

  private constructor(workers: Worker[]) {
    this.#workers = workers;
    for (const w of workers) {
      w.onmessage = (e: MessageEvent<{ id: number; verdicts: Verdict[] }>) => {
        const done = this.#inflight.get(e.data.id);
        this.#inflight.delete(e.data.id);
        e.data.verdicts.forEach((v, i) => done?.[i](v));
      };
    }
  }

  /** Starts `size` workers, each with its own instance of the core at `wasmPath`. */
  static async start(size: number, wasmPath: string | URL): Promise<WorkerVerifier> {
    const workers = await Promise.all(Array.from({ length: size }, async () => {
      const w = new Worker(new URL("./verify_worker.ts", import.meta.url), { type: "module" });
      const ready = new Promise<void>((resolve, reject) => {
        w.onmessage = (e) => (e.data?.ready ? resolve() : reject(new Error(String(e.data?.error))));
        w.onerror = (e) => {
          e.preventDefault();
          reject(new Error(e.message));
        };
      });
      w.postMessage({ wasmPath: String(wasmPath) });
      await ready;
      return w;
    }));
    return new WorkerVerifier(workers);
  }

  verify(
    hb: HeartbeatRequest,
    session: SessionSnapshot,
    now: number,
    json?: string,
  ): Promise<Verdict> {
    return new Promise((done) => {
      this.#pending.jobs.push({ hb: json ?? hb, session, now });
      this.#pending.done.push(done);
      if (this.#pending.jobs.length >= BATCH) this.#post();
      else this.#timer ??= setImmediate(() => this.#post());
    });
  }

  #post(): void {
    if (this.#timer !== null) clearImmediate(this.#timer);
    this.#timer = null;
    const batch = this.#pending;
    if (batch.jobs.length === 0) return;
    this.#pending = { jobs: [], done: [] };
    const id = this.#nextBatch++;
    this.#inflight.set(id, batch.done);
    const worker = this.#workers[this.#nextWorker++ % this.#workers.length];
    worker.postMessage({ id, jobs: batch.jobs });
  }

  close(): void {
    if (this.#timer !== null) clearImmediate(this.#timer);
    for (const w of this.#workers) w.terminate();
    // Whatever was still in flight is answered as a rejection: nothing was persisted for it.
    for (const done of this.#inflight.values()) {
      for (const d of done) d({ ok: false, reason: "conflict" });
    }
    for (const d of this.#pending.done) d({ ok: false, reason: "conflict" });
    this.#inflight.clear();
  }
}

/** Inline when `workers` is 0, otherwise a pool of that many threads. */
export async function createVerifier(
  workers: number,
  core: Core,
  wasmPath?: string | URL,
): Promise<HeartbeatVerifier> {
  if (workers <= 0) return new InlineVerifier(core);
  return await WorkerVerifier.start(
    workers,
    wasmPath ?? new URL("../../wasm/build/attest.wasm", import.meta.url),
  );
}
