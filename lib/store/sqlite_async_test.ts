import { assertEquals, assertThrows } from "../../tests/assert.ts";
import { rawRow } from "../../tests/helpers/raw_sql.ts";
import { tempStore } from "../../tests/helpers/temp_store.ts";
import { SqliteAsync } from "./sqlite_async.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("SqliteAsync: a synchronous transaction from outside an open asynchronous one throws instead of joining it", async () => {
  await using t = await tempStore();
  const db = SqliteAsync.of(t.store);
  const inside = Promise.withResolvers<void>();
  const release = Promise.withResolvers<void>();
  const open = db.tx(async () => {
    // Inside, the synchronous API is part of the transaction.
    t.store.tx(() => t.store.run("INSERT INTO meta (key, value) VALUES ('in', '1')"));
    inside.resolve();
    await release.promise;
  });
  await inside.promise;
  assertThrows(
    () => t.store.tx(() => t.store.run("INSERT INTO meta (key, value) VALUES ('out', '1')")),
    Error,
    "A synchronous transaction ran while an asynchronous one was open",
  );
  release.resolve();
  await open;
  assertEquals(rawRow<{ value: string }>(t.store, "meta", ["value"], { key: "in" })?.value, "1");
  assertEquals(rawRow(t.store, "meta", ["value"], { key: "out" }), undefined);
  // Once it ended, synchronous transactions work again.
  t.store.tx(() => t.store.run("INSERT INTO meta (key, value) VALUES ('after', '1')"));
});

Deno.test("SqliteAsync.run() outside an open transaction waits for its commit", async () => {
  await using t = await tempStore();
  const db = SqliteAsync.of(t.store);
  assertEquals(SqliteAsync.of(t.store), db, "one instance per store");
  const inside = Promise.withResolvers<void>();
  const open = db.tx(async () => {
    await db.run((s) => s.run("INSERT INTO meta (key, value) VALUES ('k', '1')"));
    inside.resolve();
    await sleep(20);
    await db.run((s) => s.run("UPDATE meta SET value = '2' WHERE key = 'k'"));
  });
  await inside.promise;
  const seen = await db.run((s) =>
    s.get<{ value: string }>("SELECT value FROM meta WHERE key = 'k'")
  );
  assertEquals(seen?.value, "2", "the read ran after the commit, not between the two writes");
  await open;
  assertEquals(db.inTransaction, false);
});
