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
  /** Makes one thread fail as a crash would (for tests of the restart). */
  crashOne(): void;
  /** Stops accepting, lets in-flight requests finish, writes what is queued. */
  shutdown(): Promise<void>;
}

/** How long a thread may take to stop gracefully before it is terminated. */
const STOP_TIMEOUT_MS = 10_000;

export async function startAttestThreads(opts: {
  count: number;
  config: Config;
  dbPath: string;
  shared: AttestShared;
  log: Logger;
}): Promise<AttestThreads> {
  const log = opts.log.child({ listener: "attestation" });
  // The threads need no password: they only serve the attestation routes.
  const config: Config = { ...opts.config, adminPassword: "" };
  const threads = new Map<number, Worker>();
  let stopping = false;

  const spawn = (row: number, port: number): Promise<{ worker: Worker; port: number }> => {
    const worker = new Worker(new URL("./thread.ts", import.meta.url), {
      type: "module",
      name: `attest-${row}`,
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
      const start: AttestThreadStart = {
        config,
        dbPath: opts.dbPath,
        shared: opts.shared,
        row,
        port,
      };
      worker.postMessage(start);
    });
  };

  const adopt = (row: number, worker: Worker, port: number) => {
    threads.set(row, worker);
    worker.onerror = (e) => {
      e.preventDefault();
      worker.terminate();
      threads.delete(row);
      if (stopping) return;
      log.error("attestation thread failed; starting another", { thread: row, err: e.message });
      spawn(row, port).then(
        (t) => stopping ? t.worker.terminate() : adopt(row, t.worker, port),
        (err) => log.error("attestation thread could not be restarted", { thread: row, err }),
      );
    };
  };

  const stopAll = async () => {
    stopping = true;
    await Promise.all([...threads.values()].map((w) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, STOP_TIMEOUT_MS);
        w.onmessage = (e: MessageEvent<AttestThreadReply>) => {
          if ("stopped" in e.data) {
            clearTimeout(timer);
            resolve();
          }
        };
        w.postMessage({ stop: true });
      }).finally(() => w.terminate())
    ));
    threads.clear();
  };

  try {
    const first = await spawn(1, opts.config.attestListen.port);
    adopt(1, first.worker, first.port);
    const rest = await Promise.allSettled(
      Array.from({ length: opts.count - 1 }, (_, i) => spawn(i + 2, first.port)),
    );
    rest.forEach((t, i) => t.status === "fulfilled" && adopt(i + 2, t.value.worker, first.port));
    const failed = rest.find((t) => t.status === "rejected");
    if (failed) throw failed.reason;
    return {
      port: first.port,
      get size() {
        return threads.size;
      },
      crashOne() {
        threads.values().next().value?.postMessage({ crash: true });
      },
      shutdown: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
