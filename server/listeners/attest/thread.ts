/// <reference lib="deno.worker" />
/**
 * One thread serving the attestation listener (server/listeners/attest/threads.ts
 * starts them). It has its own store connection, attestation core and
 * service, shares rate limits and counters with the other threads through
 * shared memory, and binds the listener's port with SO_REUSEPORT so that the
 * kernel spreads connections over the threads. A heartbeat is served start to
 * finish on the thread that received it: no hop to another thread.
 */
import { AttestService } from "../../../lib/attest/attest.ts";
import { sqliteAttestRepos } from "../../../lib/attest/sqlite_repos.ts";
import type { AttestShared } from "../../../lib/attest/shared.ts";
import { ATTEST_STORE_TUNING } from "../../../lib/attest/store_tuning.ts";
import { loadCore } from "../../../lib/attest/core.ts";
import { systemClock } from "../../../lib/clock.ts";
import type { Config } from "../../../lib/config/config.ts";
import { createLogger } from "../../../lib/log/log.ts";
import { Store } from "../../../lib/store/store.ts";
import { buildAttestApp } from "./app.ts";

/** The first message a thread receives. */
export interface AttestThreadStart {
  config: Config;
  dbPath: string;
  shared: AttestShared;
  /** This thread's counter row (1…n; row 0 is the main thread's). */
  row: number;
  /** The port to bind; 0 for the first thread when the operator asked for any port. */
  port: number;
}

export type AttestThreadReply =
  | { ready: true; port: number }
  | { failed: string }
  | { stopped: true };

let running: { shutdown(): Promise<void>; close(): void } | null = null;

async function start(msg: AttestThreadStart): Promise<number> {
  const { config } = msg;
  const log = createLogger(config.logLevel).child({ thread: `attest-${msg.row}` });
  const store = Store.open(msg.dbPath, { tuning: ATTEST_STORE_TUNING });
  try {
    const attest = new AttestService({
      ...sqliteAttestRepos(store),
      tx: store,
      core: await loadCore(),
      clock: systemClock,
      options: config.attest,
      log: log.child({ service: "attest" }),
      shared: msg.shared,
      row: msg.row,
    });
    const app = buildAttestApp({ config, log, attest });
    const server = Deno.serve({
      hostname: config.attestListen.hostname,
      port: msg.port,
      reusePort: true,
      onListen: () => {},
    }, app.fetch);
    running = {
      shutdown: () => server.shutdown(),
      close() {
        attest.close();
        store.close();
      },
    };
    return server.addr.port;
  } catch (err) {
    store.close();
    throw err;
  }
}

self.onmessage = async (e: MessageEvent<AttestThreadStart | { stop: true } | { crash: true }>) => {
  const msg = e.data;
  const reply = (r: AttestThreadReply) => self.postMessage(r);
  // For tests of the restart: fail outside any request, as a real crash would.
  if ("crash" in msg) throw new Error("Attestation thread crash requested");
  if ("stop" in msg) {
    await running?.shutdown();
    running?.close();
    running = null;
    reply({ stopped: true });
    return;
  }
  try {
    reply({ ready: true, port: await start(msg) });
  } catch (err) {
    reply({ failed: (err as Error).message });
  }
};
