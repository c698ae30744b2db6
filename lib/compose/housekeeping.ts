/**
 * Housekeeping every minute: expired attestation sessions, tokens and
 * signal paths, and expired dashboard sessions go away; peers past their
 * expiry or quota are disabled and quota periods roll over
 * (docs/peer_lifecycle.md). On PostgreSQL one
 * instance of the cluster runs it (docs/scaling.md, "Background jobs").
 */
import { electedStep, type Elector } from "../jobs/elector.ts";
import type { Logger } from "../log/log.ts";

const HOUSEKEEPING_MS = 60_000;

/** Starts the timer (it does not keep the process alive); returns the function that stops it. */
export function startHousekeeping(
  elector: Elector,
  log: Logger,
  steps: { attest(): unknown; sessions(): Promise<unknown>; peerLimits?(): Promise<unknown> },
): () => void {
  const step = electedStep(elector, "housekeeping", async () => {
    // The synchronous SQLite pass first, while no asynchronous transaction is open.
    await steps.attest();
    await steps.sessions();
    await steps.peerLimits?.();
  });
  const timer = setInterval(async () => {
    try {
      await step();
    } catch (err) {
      log.warn("housekeeping failed", { err });
    }
  }, HOUSEKEEPING_MS);
  Deno.unrefTimer(timer);
  return () => clearInterval(timer);
}
