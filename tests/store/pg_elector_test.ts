/**
 * Background jobs elected once per cluster by advisory lock, against a real
 * throwaway cluster: two PgStores on one database stand for two instances.
 */
import { assert, assertEquals } from "../assert.ts";
import { clusterPerFile, havePostgres } from "../helpers/postgres.ts";
import { electedStep } from "../../lib/jobs/elector.ts";
import { JOB_LOCK_CLASS, PgElector } from "../../lib/store/pg/pg_elector.ts";
import { PgStore } from "../../lib/store/pg/pg_store.ts";

const cluster = clusterPerFile();
const freshUrl = () => cluster.freshUrl();

interface Node {
  store: PgStore;
  elector: PgElector;
}

async function twoNodes(): Promise<[Node, Node]> {
  const url = await freshUrl();
  const open = async () => {
    const store = await PgStore.open({ url, poolSize: 2 });
    return { store, elector: PgElector.open(store) };
  };
  return [await open(), await open()];
}

async function close(...nodes: Node[]) {
  for (const n of nodes) {
    await n.elector.close();
    await n.store.close();
  }
}

/** The backend holding the housekeeping job's lock (job number 1), if any. */
async function holderPid(store: PgStore): Promise<number | null> {
  const rows = await store.sql`SELECT pid FROM pg_locks
    WHERE locktype = 'advisory' AND classid = ${JOB_LOCK_CLASS} AND objid = 1 AND granted`;
  return rows.length ? Number(rows[0].pid) : null;
}

Deno.test("pg elector", async (t) => {
  if (!havePostgres("pg elector")) return;
  try {
    await t.step("only one instance runs a job, at every tick, never two at once", async () => {
      const [a, b] = await twoNodes();
      try {
        const runs: string[] = [];
        let running = 0;
        let most = 0;
        const job = (name: string) =>
          electedStep(name === "a" ? a.elector : b.elector, "housekeeping", async () => {
            most = Math.max(most, ++running);
            runs.push(name);
            await new Promise((r) => setTimeout(r, 20));
            running--;
          });
        const [tickA, tickB] = [job("a"), job("b")];
        for (let round = 0; round < 10; round++) {
          const ran = await Promise.all([tickA(), tickB()]);
          assertEquals(ran.filter(Boolean).length, 1, `round ${round}: ${ran}`);
        }
        assertEquals(runs.length, 10);
        // Elected once, the same instance keeps the job.
        assertEquals(new Set(runs).size, 1);
        assertEquals(most, 1);
        // Another job is elected on its own key.
        const other = await Promise.all([
          a.elector.elected("dnssec_rollover"),
          b.elector.elected("dnssec_rollover"),
        ]);
        assertEquals(other.filter(Boolean).length, 1);
      } finally {
        await close(a, b);
      }
    });

    await t.step(
      "when the holder's connection dies the other instance takes over at its next tick",
      async () => {
        const [a, b] = await twoNodes();
        try {
          assert(await a.elector.elected("housekeeping"));
          assert(!(await b.elector.elected("housekeeping")));
          const pid = await holderPid(a.store);
          assert(pid !== null);
          // With a timeout it returns once the backend is gone (its locks released with it).
          await b.store.sql`SELECT pg_terminate_backend(${pid}, 5000)`;
          assertEquals(await b.elector.elected("housekeeping"), true);
          // A's next tick opens a new session, which does not hold the job any more.
          assertEquals(await a.elector.elected("housekeeping"), false);
          assertEquals(await a.elector.elected("housekeeping"), false);
          assert((await holderPid(a.store)) !== pid);
        } finally {
          await close(a, b);
        }
      },
    );

    await t.step("closing the holder hands the job to the other instance", async () => {
      const [a, b] = await twoNodes();
      try {
        assert(await b.elector.elected("housekeeping"));
        assert(!(await a.elector.elected("housekeeping")));
        await b.elector.close();
        assert(await a.elector.elected("housekeeping"));
        assertEquals(await holderPid(a.store) !== null, true);
      } finally {
        await a.elector.close();
        await Promise.all([a.store.close(), b.store.close()]);
      }
    });

    await t.step("a tick whose statement fails is skipped, not thrown", async () => {
      const [a, b] = await twoNodes();
      await close(a, b);
      // Its session is ended: the statement fails, and the tick says "not elected".
      assertEquals(await a.elector.elected("housekeeping"), false);
    });
  } finally {
    await cluster.stop();
  }
});
