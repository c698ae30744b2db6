/**
 * Jobs elected by a session-level advisory lock (docs/scaling.md,
 * "Cross-instance infrastructure"). The locks live on a connection of their
 * own (`PgStore.session("jobs")`), not in the pool: the job's work runs on
 * the pool, in as many transactions as it needs, while the lock stays
 * with the instance. The holder keeps the job until its session ends: on
 * `close()`, or when the process dies and PostgreSQL ends the session with
 * its connection. Another instance's next tick then takes the lock.
 *
 * A tick is one statement: "do I hold the lock? if not, try to take it".
 * When the session was lost (terminated, network), the client opens a new
 * one for that statement, which no longer holds the lock: the instance
 * notices it lost the job at its next tick rather than running it on.
 */
import type { Sql } from "./pg_store.ts";
import type { PgStore } from "./pg_store.ts";
import { type Elector, type JobName, JOBS } from "../../jobs/elector.ts";

/** First key of the two-key advisory locks of jobs ("pali" in ASCII); the second is the job's number. */
export const JOB_LOCK_CLASS = 0x70616c69;

export class PgElector implements Elector {
  readonly #session: Sql;

  private constructor(session: Sql) {
    this.#session = session;
  }

  /** The composition root's one call on PostgreSQL; `close()` it on shutdown. */
  static open(store: PgStore): PgElector {
    return new PgElector(store.session("jobs"));
  }

  async elected(job: JobName): Promise<boolean> {
    const key = JOBS[job];
    try {
      // The two-key form shows in pg_locks as classid/objid with objsubid 2.
      // CASE evaluates the lock attempt only when not held: a second hold would stack.
      const [row] = await this.#session`
        SELECT CASE WHEN EXISTS (
                 SELECT 1 FROM pg_locks
                  WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted
                    AND classid = ${JOB_LOCK_CLASS} AND objid = ${key} AND objsubid = 2)
               THEN true
               ELSE pg_try_advisory_lock(${JOB_LOCK_CLASS}, ${key}) END AS held`;
      return row.held === true;
    } catch {
      // No database this turn: not elected; the session is opened again at the next tick.
      return false;
    }
  }

  /** Ends the session, which releases every job's lock. */
  async close(): Promise<void> {
    await this.#session.end({ timeout: 5 });
  }
}
