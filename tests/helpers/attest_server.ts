/**
 * An attestation test rig: a real server (with a manual clock) and reference
 * clients talking to its attestation listener over HTTP.
 */
import { AttestClient, fetchTransport } from "../../lib/attest/client.ts";
import { loadCore } from "../../lib/attest/core.ts";
import { ManualClock } from "../../lib/clock.ts";
import { startTestServer, type TestServer, type TestServerOptions } from "./test_server.ts";

export interface AttestRig extends AsyncDisposable {
  t: TestServer;
  clock: ManualClock;
  /** A new client with an initialized session. */
  client(): Promise<AttestClient>;
  /** The session row as stored. */
  row(sessionId: string): Record<string, unknown> | undefined;
  /** Current value of a rejection counter from /metrics. */
  rejected(reason: string): Promise<number>;
  metrics(): Promise<string>;
}

/** Starts the rig; the clock starts at the real time so client timestamps stay plausible. */
export async function startAttestRig(opts: TestServerOptions = {}): Promise<AttestRig> {
  const clock = new ManualClock(Date.now());
  const t = await startTestServer({ clock, ...opts });
  const core = await loadCore();
  const metrics = async () => await (await fetch(`${t.attest}/metrics`)).text();
  return {
    t,
    clock,
    async client() {
      const c = new AttestClient(core, fetchTransport(t.attest), () => clock.now());
      await c.init();
      return c;
    },
    row(sessionId) {
      const r = t.services.store.get<Record<string, unknown>>(
        "SELECT * FROM attest_sessions WHERE session_id = ?",
        sessionId,
      );
      // Copy the BLOB so later changes of the row cannot alias it.
      if (r?.gene_state instanceof Uint8Array) {
        r.gene_state = Array.from(r.gene_state as Uint8Array);
      }
      return r;
    },
    metrics,
    async rejected(reason) {
      const line = (await metrics()).split("\n").find((l) =>
        l.startsWith(`attest_heartbeats_rejected_total{reason="${reason}"} `)
      );
      if (!line) throw new Error(`no counter for reason "${reason}"`);
      return Number(line.split(" ")[1]);
    },
    [Symbol.asyncDispose]: () => t.close(),
  };
}
