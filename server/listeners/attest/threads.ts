/**
 * Serves the attestation listener from `count` threads (server/listeners/attest/thread.ts),
 * all bound to one port with SO_REUSEPORT. Heartbeat verification is most of
 * the CPU a heartbeat costs, and it scales with the threads because each
 * serves its requests start to finish. The first thread binds the configured
 * port (the OS picks one when it is 0), the others join it. A thread that dies
 * is replaced on the same port; its connections are dropped and the clients'
 * next requests go to the live threads.
 */
import type { AttestShared } from "../../../lib/attest/shared.ts";
import type { Config } from "../../../lib/config/config.ts";
import type { Logger } from "../../../lib/log/log.ts";
import type { AttestThreadReply, AttestThreadStart } from "./thread.ts";

export interface AttestThreads {
  port: number;
  /** Threads serving now. */
  readonly size: number;
  /** Threads started in place of one that died (tests of the restart read it). */
  readonly replaced: number;
  /** Makes one thread fail as a crash would (for tests of the restart). */
  crashOne(): void;
  /** Stops accepting, lets in-flight requests finish, writes what is queued. */
  shutdown(): Promise<void>;
}

/** How long a thread may take to stop gracefully before it is terminated. */
const STOP_TIMEOUT_MS = 10_000;

export interface AttestThreadOptions {
  count: number;
  config: Config;
  dbPath: string;
  shared: AttestShared;
  log: Logger;
}

/** Starts one thread; resolves with the port it bound once it serves. */
function spawnThread(start: AttestThreadStart): Promise<{ worker: Worker; port: number }> {
  const worker = new Worker(new URL("./thread.ts", import.meta.url), {
    type: "module",
    name: `attest-${start.row}`,
  });
  return new Promise((resolve, reject) => {
    worker.onmessage = (e: MessageEvent<AttestThreadReply>) => {
      if ("ready" in e.data) resolve({ worker, port: e.data.port });
      else if ("failed" in e.data) {
        worker.terminate();
        reject(new Error(e.data.failed));
      }
    };
    worker.onerror = (e) => {
      e.preventDefault();
      worker.terminate();
      reject(new Error(e.message));
    };
    worker.postMessage(start);
  });
}

/** Asks a thread to stop gracefully; terminates it when done or after STOP_TIMEOUT_MS. */
function stopThread(worker: Worker): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, STOP_TIMEOUT_MS);
    worker.onmessage = (e: MessageEvent<AttestThreadReply>) => {
      if ("stopped" in e.data) {
        clearTimeout(timer);
        resolve();
      }
    };
    worker.postMessage({ stop: true });
  }).finally(() => worker.terminate());
}

/** The live threads by counter row; a thread that dies is replaced on the same port. */
class ThreadPool {
  readonly threads = new Map<number, Worker>();
  replaced = 0;
  #stopping = false;
  readonly #log: Logger;
  readonly #config: Config;

  constructor(private readonly opts: AttestThreadOptions) {
    this.#log = opts.log.child({ listener: "attestation" });
    // The threads need no password: they only serve the attestation routes.
    this.#config = { ...opts.config, adminPassword: "", pdnsApiKey: null };
  }

  spawn(row: number, port: number): Promise<{ worker: Worker; port: number }> {
    const { dbPath, shared } = this.opts;
    return spawnThread({ config: this.#config, dbPath, shared, row, port });
  }

  adopt(row: number, worker: Worker, port: number): void {
    this.threads.set(row, worker);
    worker.onerror = (e) => {
      e.preventDefault();
      worker.terminate();
      this.threads.delete(row);
      if (this.#stopping) return;
      this.#log.error("attestation thread failed; starting another", {
        thread: row,
        err: e.message,
      });
      this.spawn(row, port).then(
        (t) => {
          if (this.#stopping) return t.worker.terminate();
          this.replaced++;
          this.adopt(row, t.worker, port);
        },
        (err) => this.#log.error("attestation thread could not be restarted", { thread: row, err }),
      );
    };
  }

  async stopAll(): Promise<void> {
    this.#stopping = true;
    await Promise.all([...this.threads.values()].map(stopThread));
    this.threads.clear();
  }
}

/** Starts `count` threads on the configured port; throws (after stopping them) when one fails. */
export async function startAttestThreads(opts: AttestThreadOptions): Promise<AttestThreads> {
  const pool = new ThreadPool(opts);
  try {
    const first = await pool.spawn(1, opts.config.attestListen.port);
    pool.adopt(1, first.worker, first.port);
    const rest = await Promise.allSettled(
      Array.from({ length: opts.count - 1 }, (_, i) => pool.spawn(i + 2, first.port)),
    );
    rest.forEach((t, i) =>
      t.status === "fulfilled" && pool.adopt(i + 2, t.value.worker, first.port)
    );
    const failed = rest.find((t) => t.status === "rejected");
    if (failed) throw failed.reason;
    return {
      port: first.port,
      get size() {
        return pool.threads.size;
      },
      get replaced() {
        return pool.replaced;
      },
      crashOne() {
        pool.threads.values().next().value?.postMessage({ crash: true });
      },
      shutdown: () => pool.stopAll(),
    };
  } catch (err) {
    await pool.stopAll();
    throw err;
  }
}
