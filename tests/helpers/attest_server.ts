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
  /**
   * Every heartbeat counter of /metrics: "accepted" and each rejection reason,
   * for comparing a before and an after with `counterChanges`.
   */
  counters(): Promise<Record<string, number>>;
  metrics(): Promise<string>;
}

/** The counters that changed from `before` to `after`, by how much. */
export function counterChanges(
  before: Record<string, number>,
  after: Record<string, number>,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(after)) {
    if (v !== (before[k] ?? 0)) out[k] = v - (before[k] ?? 0);
  }
  return out;
}

/** Posts a heartbeat body to the rig's attestation listener. */
export async function postHb(
  rig: AttestRig,
  body: unknown,
): Promise<{ status: number; text: string; headers: Headers }> {
  const res = await fetch(`${rig.t.attest}/hb`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text(), headers: res.headers };
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
      const r = t.store.get<Record<string, unknown>>(
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
    async counters() {
      const out: Record<string, number> = {};
      for (const line of (await metrics()).split("\n")) {
        const m = /^attest_heartbeats_(accepted)_total (\S+)$/.exec(line) ??
          /^attest_heartbeats_rejected_total\{reason="(\w+)"\} (\S+)$/.exec(line);
        if (m) out[m[1]] = Number(m[2]);
      }
      if (out.accepted === undefined) throw new Error("no counter of accepted heartbeats");
      return out;
    },
    [Symbol.asyncDispose]: () => t.close(),
  };
}
