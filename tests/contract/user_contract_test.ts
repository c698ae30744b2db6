/**
 * The user repository (lib/auth/user_repo.ts, pg_user_repo.ts) behaves the
 * same on SQLite and PostgreSQL: CRUD, the username unique in any letter
 * case as a ConflictError naming the field (also for two concurrent inserts),
 * and the same order, pages and cursors.
 */
import { assertEquals, assertRejects } from "../assert.ts";
import { ConflictError } from "../../lib/errors.ts";
import { paginateAsync } from "../../lib/paging.ts";
import { PgUserRepo } from "../../lib/auth/pg_user_repo.ts";
import {
  type NewUserRecord,
  SqliteUserRepo,
  type UserRecord,
  type UserRepo,
} from "../../lib/auth/user_repo.ts";
import { type Engine, repoContract } from "./engines.ts";

const repoOf = (e: Engine): UserRepo =>
  e.pick<UserRepo>({
    sqlite: (db) => new SqliteUserRepo(db),
    postgres: (db) => new PgUserRepo(db),
  });

const user = (id: string, username: string, createdAt = 1000): NewUserRecord => ({
  id,
  username,
  email: `${id}@example.org`,
  role: "viewer",
  passwordHash: `hash-${id}`,
  createdAt,
});

async function conflictOf(p: () => Promise<unknown>): Promise<ConflictError> {
  return await assertRejects(p, ConflictError) as ConflictError;
}

repoContract("UserRepo", {
  "insert, read by id and by name in any letter case, update, count": async (e) => {
    const repo = repoOf(e);
    assertEquals(await repo.byId("u1"), undefined);
    await repo.insert({ ...user("u1", "Alice"), role: "administrator" });
    await repo.insert(user("u2", "bob"));
    const alice = {
      id: "u1",
      username: "Alice",
      email: "u1@example.org",
      role: "administrator",
      passwordHash: "hash-u1",
      authEpoch: 0,
      createdAt: 1000,
      lastLogin: null,
    };
    assertEquals(await repo.byId("u1"), alice);
    assertEquals(await repo.byUsername("aLiCe"), alice);
    assertEquals(await repo.byUsername("carol"), undefined);
    assertEquals([await repo.count(), await repo.countWithRole("administrator")], [2, 1]);

    await repo.setLastLogin("u2", 5000);
    await repo.setRole("u2", "operator", 5001);
    assertEquals(await repo.setPasswordHash("u2", "new", 5002), true);
    assertEquals(await repo.setPasswordHash("nobody", "new", 5002), false);
    const bob = await repo.byId("u2");
    assertEquals(
      [bob?.lastLogin, bob?.role, bob?.passwordHash, bob?.authEpoch],
      [5000, "operator", "new", 1],
    );
    const [raw] = await e.raw<{ updated_at: number }>(
      "SELECT updated_at FROM users WHERE id = ?",
      "u2",
    );
    assertEquals(Number(raw.updated_at), 5002);
  },

  "a taken username in any letter case is a ConflictError naming the field": async (e) => {
    const repo = repoOf(e);
    await repo.insert(user("u1", "alice"));
    const err = await conflictOf(() => repo.insert(user("u2", "ALICE")));
    assertEquals(err.message, 'User "ALICE" already exists');
    assertEquals([err.field, err.code], ["username", "duplicate_username"]);
    assertEquals(await repo.count(), 1);
  },

  "two concurrent inserts of one name in any letter case: one lands, the other conflicts": async (
    e,
  ) => {
    const repo = repoOf(e);
    // SQLite runs them one after the other (the check refuses the second); on PostgreSQL both
    // checks can pass, and the unique index (or a serialization re-run) refuses one.
    const a = e.transactor.tx(() => repo.insert(user("u1", "dave")));
    const b = e.transactor.tx(() => repo.insert(user("u2", "DAVE")));
    const results = await Promise.allSettled([a, b]);
    const refused = results.filter((r) => r.status === "rejected");
    assertEquals(refused.length, 1, "exactly one insert lands");
    const err = (refused[0] as PromiseRejectedResult).reason;
    assertEquals(err instanceof ConflictError, true, String(err));
    assertEquals([err.field, err.code], ["username", "duplicate_username"]);
    assertEquals(await repo.count(), 1);
  },

  "an insert inside a transaction that rolls back leaves no user": async (e) => {
    const repo = repoOf(e);
    await assertRejects(() =>
      e.transactor.tx(async () => {
        await repo.insert(user("u1", "erin"));
        throw new Error("Rolled back on purpose");
      })
    );
    assertEquals(await repo.count(), 0);
    await repo.insert(user("u1", "erin"));
    assertEquals((await repo.byUsername("ERIN"))?.id, "u1");
  },

  "list() orders by creation, then by name in any letter case; pages and cursors agree": async (
    e,
  ) => {
    const repo = repoOf(e);
    const names = ["Bob", "alice", "_x", "carol", "Dave"];
    for (const [i, name] of names.entries()) await repo.insert(user(`u${i}`, name, 1000));
    await repo.insert(user("u9", "Aaron", 2000));
    const order = ["_x", "alice", "Bob", "carol", "Dave", "Aaron"];
    assertEquals((await repo.list()).map((u) => u.username), order);

    const walk: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 10; i++) {
      const page = await paginateAsync<UserRecord>({ limit: 2, cursor }, {
        kind: "users",
        shape: ["n", "s"],
        keyOf: (u) => [u.createdAt, u.username],
        rows: (w) => repo.list(w),
        count: () => repo.count(),
      });
      assertEquals(page.total, 6);
      walk.push(...page.items.map((u) => u.username));
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
    assertEquals(walk, order);
    assertEquals(
      (await repo.list({ offset: 4, limit: 5 })).map((u) => u.username),
      ["Dave", "Aaron"],
    );
  },
});
