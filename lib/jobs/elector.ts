/**
 * Background jobs that must run once per cluster, not once per instance
 * (issue 27, docs/scaling.md decision 9 and "Cross-instance
 * infrastructure"). Each timer keeps ticking on every instance; a tick asks
 * the elector whether this instance runs the job and skips the turn when
 * not. On SQLite there is one process per store file, so it always runs; on
 * PostgreSQL the instance holding the job's advisory lock runs it
 * (`lib/store/pg/pg_elector.ts`).
 *
 * Elected: the housekeeping purge (expired sessions, tokens, signal paths;
 * running it twice is harmless, but once is enough) and the DNSSEC rollover
 * pass (two instances would start two ZSK rotations of one zone). Not
 * elected, they run on every instance: the attestation rates and site
 * history (each instance's own in-memory counters) and the tunnel monitor
 * (it reads the host of its own driver; only the instance with the host
 * driver runs it, docs/scaling.md decision 10).
 */

/** The jobs, with the number that is their lock's key: never reuse or renumber one. */
export const JOBS = {
  housekeeping: 1,
  dnssec_rollover: 2,
} as const;

export type JobName = keyof typeof JOBS;

export interface Elector {
  /**
   * Whether this instance runs `job` now. Once elected, an instance stays
   * elected until it closes or loses its database session; another instance
   * is elected at its first tick after that.
   */
  elected(job: JobName): Promise<boolean>;
  /** Gives every job up (another instance takes them over at its next tick). */
  close(): Promise<void>;
}

/** SQLite: one process owns the store file, so it runs every job. */
export const singleInstance: Elector = {
  elected: () => Promise.resolve(true),
  close: () => Promise.resolve(),
};

/**
 * `step` wrapped for a timer: it runs only on the elected instance; returns
 * whether it ran. A failed election (the database unreachable) skips the turn.
 */
export function electedStep(
  elector: Elector,
  job: JobName,
  step: () => unknown,
): () => Promise<boolean> {
  return async () => {
    if (!(await elector.elected(job))) return false;
    await step();
    return true;
  };
}
