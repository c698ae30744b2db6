/**
 * What the attestation listener's routes and the composition root use of
 * the attestation engine: `AttestService` on SQLite (threads, group commit)
 * or `PgAttestService` on PostgreSQL (one conditional write per heartbeat).
 * Methods that are synchronous on SQLite and asynchronous on PostgreSQL are
 * awaited by every caller.
 */
import type { AttestService } from "./attest.ts";
import type { InitResponse } from "./messages.ts";
import type { AttestStats } from "./session_repo.ts";
import type { SessionSignalsView } from "./signals/signals.ts";

export interface AttestRuntime
  extends Pick<AttestService, "counters" | "sites" | "signals" | "tokens" | "heartbeat"> {
  init(...args: Parameters<AttestService["init"]>): InitResponse | Promise<InitResponse>;
  stats(): AttestStats | Promise<AttestStats>;
  metrics(): string | Promise<string>;
  purgeExpired(): number | Promise<number>;
  signalsOf(sessionId: string): SessionSignalsView | null | Promise<SessionSignalsView | null>;
}
