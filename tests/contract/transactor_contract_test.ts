/**
 * The AsyncTransactor contract on both engines (lib/store/async_transactor.ts):
 * concurrent transactions lose no update, a read outside a transaction never
 * sees its uncommitted rows, hooks run after the commit only, a throw rolls
 * back, and a nested transaction commits with the outer one while a throw out
 * of it undoes only its own part.
 */
import { assertEquals, assertRejects } from "../assert.ts";
import { type Engine, repoContract } from "./engines.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function value(e: Engine, key: string): Promise<string | undefined> {
  return (await e.raw<{ value: string }>("SELECT value FROM meta WHERE key = ?", key))[0]?.value;
}

repoContract("AsyncTransactor", {
  "two concurrent read-then-write transactions both land": async (e) => {
    await e.raw("INSERT INTO meta (key, value) VALUES ('n', '0')");
    const trace: string[] = [];
    const increment = (label: string) =>
      e.transactor.tx(async () => {
        trace.push(`${label} read`);
        const n = Number(await value(e, "n"));
        // A real pause (timers and I/O run) between the read and the write.
        await sleep(20);
        await e.raw("UPDATE meta SET value = ? WHERE key = 'n'", String(n + 1));
        trace.push(`${label} wrote`);
        return label;
      });
    assertEquals(await Promise.all([increment("a"), increment("b")]), ["a", "b"]);
    assertEquals(await value(e, "n"), "2");
    if (e.name === "sqlite") {
      // One connection: the second transaction starts only after the first ended.
      assertEquals(trace, ["a read", "a wrote", "b read", "b wrote"]);
    }
  },

  "a read outside an open transaction never sees its uncommitted rows": async (e) => {
    const inside = Promise.withResolvers<void>();
    const done = e.transactor.tx(async () => {
      await e.raw("INSERT INTO meta (key, value) VALUES ('x', '1')");
      inside.resolve();
      await sleep(30);
      throw new Error("Rolled back on purpose");
    });
    await inside.promise;
    assertEquals(await value(e, "x"), undefined);
    await assertRejects(() => done, Error, "Rolled back on purpose");
    assertEquals(await value(e, "x"), undefined);
  },

  "hooks run after the commit, in order; a throw rolls back and runs none": async (e) => {
    const seen: string[] = [];
    const result = await e.transactor.tx(async () => {
      await e.raw("INSERT INTO meta (key, value) VALUES ('a', '1')");
      e.transactor.afterCommit(() => seen.push("first"));
      e.transactor.afterCommit(() => seen.push("second"));
      assertEquals(seen.length, 0, "no hook before the commit");
      return 7;
    });
    assertEquals(result, 7);
    assertEquals(seen, ["first", "second"]);
    assertEquals(await value(e, "a"), "1");

    await assertRejects(() =>
      e.transactor.tx(async () => {
        await e.raw("INSERT INTO meta (key, value) VALUES ('b', '1')");
        e.transactor.afterCommit(() => seen.push("dropped"));
        throw new Error("No");
      })
    );
    assertEquals(await value(e, "b"), undefined);
    assertEquals(seen.length, 2, "the rolled-back transaction's hook did not run");

    // Outside a transaction a hook runs at once.
    e.transactor.afterCommit(() => seen.push("now"));
    assertEquals(seen.at(-1), "now");
  },

  "a nested transaction commits with the outer one; a throw out of it undoes only its part": async (
    e,
  ) => {
    const seen: string[] = [];
    await e.transactor.tx(async () => {
      await e.raw("INSERT INTO meta (key, value) VALUES ('outer', '1')");
      await e.transactor.tx(async () => {
        await e.raw("INSERT INTO meta (key, value) VALUES ('kept', '1')");
        e.transactor.afterCommit(() => seen.push("kept"));
      });
      assertEquals(seen.length, 0, "a nested commit runs no hook");
      await assertRejects(() =>
        e.transactor.tx(async () => {
          await e.raw("INSERT INTO meta (key, value) VALUES ('undone', '1')");
          e.transactor.afterCommit(() => seen.push("undone"));
          throw new Error("Inner");
        })
      );
      // Still usable after the inner rollback, and it sees its own rows.
      assertEquals(await value(e, "kept"), "1");
      assertEquals(await value(e, "undone"), undefined);
    });
    assertEquals(seen, ["kept"]);
    assertEquals(
      (await e.raw<{ key: string }>(
        "SELECT key FROM meta WHERE key IN ('outer', 'kept', 'undone') ORDER BY key",
      ))
        .map((r) => r.key),
      ["kept", "outer"],
    );

    // An outer rollback takes the committed nested part with it.
    await assertRejects(() =>
      e.transactor.tx(async () => {
        await e.transactor.tx(() => e.raw("INSERT INTO meta (key, value) VALUES ('gone', '1')"));
        throw new Error("Outer");
      })
    );
    assertEquals(await value(e, "gone"), undefined);
  },
});
