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

/** The verdict for a job whose worker failed: a rejection, never an acceptance. */
const FAILED: Verdict = { ok: false, reason: "internal_error" };

/**
 * Runs the checks in `size` worker threads. A worker that dies fails its
 * batches (answered as rejections, so no request waits forever) and is
 * replaced.
 */
export class WorkerVerifier implements HeartbeatVerifier {
  readonly #workers: Worker[] = [];
  /** Batches posted and not yet answered: their callbacks and the worker holding them. */
  readonly #inflight = new Map<number, { done: ((v: Verdict) => void)[]; worker: Worker }>();
  #pending: Pending = { jobs: [], done: [] };
  #timer: ReturnType<typeof setImmediate> | null = null;
  #nextBatch = 0;
  #nextWorker = 0;
  #closed = false;

  private constructor(private readonly wasmPath: string) {}

  /** Starts `size` workers, each with its own instance of the core at `wasmPath`. */
  static async start(size: number, wasmPath: string | URL): Promise<WorkerVerifier> {
    const pool = new WorkerVerifier(String(wasmPath));
    const workers = await Promise.all(Array.from({ length: size }, () => pool.#spawn()));
    for (const w of workers) pool.#adopt(w);
    return pool;
  }

  async #spawn(): Promise<Worker> {
    const w = new Worker(new URL("./verify_worker.ts", import.meta.url), { type: "module" });
    const ready = new Promise<void>((resolve, reject) => {
      w.onmessage = (e) => (e.data?.ready ? resolve() : reject(new Error(String(e.data?.error))));
      w.onerror = (e) => {
        e.preventDefault();
        reject(new Error(e.message));
      };
    });
    w.postMessage({ wasmPath: this.wasmPath });
    await ready;
    return w;
  }

  #adopt(w: Worker): void {
    this.#workers.push(w);
    w.onmessage = (e: MessageEvent<{ id: number; verdicts: Verdict[] }>) => {
      const batch = this.#inflight.get(e.data.id);
      this.#inflight.delete(e.data.id);
      e.data.verdicts.forEach((v, i) => batch?.done[i](v));
    };
    w.onerror = (e) => {
      e.preventDefault();
      this.#replace(w);
    };
  }

  /** Fails the batches a dead worker held and starts another in its place. */
  #replace(dead: Worker): void {
    dead.terminate();
    const at = this.#workers.indexOf(dead);
    if (at >= 0) this.#workers.splice(at, 1);
    for (const [id, batch] of this.#inflight) {
      if (batch.worker !== dead) continue;
      this.#inflight.delete(id);
      for (const done of batch.done) done(FAILED);
    }
    if (this.#closed) return;
    this.#spawn().then((w) => this.#closed ? w.terminate() : this.#adopt(w), () => {
      // Starting failed too: the remaining workers (or none, see #post) carry on.
    });
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
    if (this.#workers.length === 0) {
      // Every worker died and none could be restarted: reject rather than wait.
      for (const done of batch.done) done(FAILED);
      return;
    }
    const id = this.#nextBatch++;
    const worker = this.#workers[this.#nextWorker++ % this.#workers.length];
    this.#inflight.set(id, { done: batch.done, worker });
    worker.postMessage({ id, jobs: batch.jobs });
  }

  close(): void {
    this.#closed = true;
    if (this.#timer !== null) clearImmediate(this.#timer);
    for (const w of this.#workers) w.terminate();
    // Whatever was still in flight is answered as a rejection: nothing was persisted for it.
    for (const batch of this.#inflight.values()) for (const d of batch.done) d(FAILED);
    for (const d of this.#pending.done) d(FAILED);
    this.#inflight.clear();
  }

  /** Live workers (for tests). */
  get size(): number {
    return this.#workers.length;
  }

  /** Makes a worker throw outside any job, as a crash would (for tests). */
  crashOne(): void {
    this.#workers[0]?.postMessage({ crash: true });
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
