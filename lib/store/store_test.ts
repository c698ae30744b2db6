import { assert, assertEquals, assertThrows } from "../../tests/assert.ts";
import { isUniqueViolation, Store } from "./store.ts";
import { tempStore } from "../../tests/helpers/temp_store.ts";

Deno.test("Store.open() applies migrations and records the version", async () => {
  await using t = await tempStore();
  assert(t.store.version >= 1);
  const journal = t.store.get<{ journal_mode: string }>("PRAGMA journal_mode");
  assertEquals(journal?.journal_mode, "wal");
  assertEquals(t.store.get<{ foreign_keys: number }>("PRAGMA foreign_keys")?.foreign_keys, 1);
});

Deno.test("Store.open() on an existing file applies only newer migrations", async () => {
  await using t = await tempStore();
  const path = t.store.path;
  t.store.close();
  const again = Store.open(path, {
    migrations: [
      { version: 1, name: "already applied", sql: "THIS WOULD FAIL;" },
      { version: 99, name: "new", sql: "CREATE TABLE later (x INTEGER);" },
    ],
  });
  assertEquals(again.version, 99);
  again.run("INSERT INTO later (x) VALUES (?)", 1);
  again.close();
});

Deno.test("Store.tx() rolls back every row when the callback throws", async () => {
  await using t = await tempStore();
  const s = t.store;
  s.db.exec("CREATE TABLE t (x INTEGER UNIQUE)");
  assertThrows(() =>
    s.tx(() => {
      s.run("INSERT INTO t (x) VALUES (?)", 1);
      s.run("INSERT INTO t (x) VALUES (?)", 1);
    })
  );
  assertEquals(s.all("SELECT * FROM t").length, 0);
});

Deno.test("Store.tx() runs after-commit hooks only when the transaction commits", async () => {
  await using t = await tempStore();
  const s = t.store;
  const fired: string[] = [];
  s.tx(() => s.afterCommit(() => fired.push("committed")));
  try {
    s.tx(() => {
      s.afterCommit(() => fired.push("rolled back"));
      throw new Error("boom");
    });
  } catch { /* expected */ }
  assertEquals(fired, ["committed"]);
});

Deno.test("Store.tx() nests as savepoints: an inner failure keeps the outer work", async () => {
  await using t = await tempStore();
  const s = t.store;
  s.db.exec("CREATE TABLE t (x INTEGER)");
  s.tx(() => {
    s.run("INSERT INTO t (x) VALUES (1)");
    try {
      s.tx(() => {
        s.run("INSERT INTO t (x) VALUES (2)");
        throw new Error("inner");
      });
    } catch { /* expected */ }
  });
  assertEquals(s.all<{ x: number }>("SELECT x FROM t").map((r) => r.x), [1]);
});

Deno.test("isUniqueViolation() recognises a UNIQUE failure", async () => {
  await using t = await tempStore();
  t.store.db.exec("CREATE TABLE t (x INTEGER UNIQUE)");
  t.store.run("INSERT INTO t (x) VALUES (1)");
  try {
    t.store.run("INSERT INTO t (x) VALUES (1)");
    throw new Error("no violation");
  } catch (err) {
    assert(isUniqueViolation(err));
  }
});

Deno.test("Store.tx() drops the after-commit hooks of a rolled-back savepoint", async () => {
  await using t = await tempStore();
  const s = t.store;
  const fired: string[] = [];
  s.tx(() => {
    s.afterCommit(() => fired.push("outer"));
    try {
      s.tx(() => {
        s.afterCommit(() => fired.push("inner, rolled back"));
        throw new Error("inner");
      });
    } catch { /* expected */ }
    s.tx(() => s.afterCommit(() => fired.push("inner, kept")));
  });
  assertEquals(fired, ["outer", "inner, kept"]);
});

Deno.test("Store.open() makes the database and its WAL readable by the owner only", async () => {
  await using t = await tempStore();
  t.store.run("CREATE TABLE t (x INTEGER)");
  for (const suffix of ["", "-wal", "-shm"]) {
    const mode = Deno.statSync(`${t.store.path}${suffix}`).mode! & 0o777;
    assertEquals(mode.toString(8), "600", `palisade.db${suffix}`);
  }
});
