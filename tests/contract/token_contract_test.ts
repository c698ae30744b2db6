/**
 * The API token repository (lib/auth/token_repo.ts, pg_token_repo.ts)
 * behaves the same on SQLite and PostgreSQL: a token read with its owner's
 * current role, listings newest first (ties by id), use recorded, deletion,
 * tokens going with their owner, and rollback.
 */
import { assertEquals, assertRejects } from "../assert.ts";
import { PgTokenRepo } from "../../lib/auth/pg_token_repo.ts";
import { PgUserRepo } from "../../lib/auth/pg_user_repo.ts";
import {
  type NewToken,
  SqliteTokenRepo,
  type TokenRecord,
  type TokenRepo,
} from "../../lib/auth/token_repo.ts";
import { SqliteUserRepo, type UserRepo } from "../../lib/auth/user_repo.ts";
import { type Engine, repoContract } from "./engines.ts";
import { seedOwners } from "./owners.ts";

function reposOf(e: Engine): { tokens: TokenRepo; users: UserRepo } {
  return e.pick<{ tokens: TokenRepo; users: UserRepo }>({
    sqlite: (db) => ({ tokens: new SqliteTokenRepo(db), users: new SqliteUserRepo(db) }),
    postgres: (db) => ({ tokens: new PgTokenRepo(db), users: new PgUserRepo(db) }),
  });
}

async function withOwners(e: Engine) {
  const r = reposOf(e);
  await seedOwners(r.users);
  return r;
}

const token = (id: string, userId: string, createdAt: number): NewToken => ({
  id,
  userId,
  name: `token ${id}`,
  tokenHash: `hash-${id}`,
  createdAt,
  expiresAt: createdAt + 1000,
});

const ids = (rows: TokenRecord[]) => rows.map((t) => t.id);

repoContract("TokenRepo", {
  "a token is read with its owner's current role": async (e) => {
    const { tokens, users } = await withOwners(e);
    assertEquals(await tokens.byId("t1"), undefined);
    await tokens.insert(token("t1", "u1", 100));
    const owner = { id: "u1", username: "alice", email: "alice@example.org", role: "operator" };
    assertEquals(await tokens.byId("t1"), {
      id: "t1",
      name: "token t1",
      tokenHash: "hash-t1",
      createdAt: 100,
      expiresAt: 1100,
      lastUsedAt: null,
      owner,
    });
    await users.setRole("u1", "viewer", 200);
    assertEquals((await tokens.byId("t1"))?.owner.role, "viewer");
  },
  "listings are newest first, ties by id descending": async (e) => {
    const { tokens } = await withOwners(e);
    await tokens.insert(token("t-a", "u1", 100));
    await tokens.insert(token("t-c", "u2", 300));
    await tokens.insert(token("t-b", "u1", 300));
    await tokens.insert(token("t-d", "u1", 200));
    assertEquals(ids(await tokens.listAll()), ["t-c", "t-b", "t-d", "t-a"]);
    assertEquals(ids(await tokens.listOf("u1")), ["t-b", "t-d", "t-a"]);
    assertEquals(await tokens.listOf("u3"), []);
  },
  "touch records use; delete removes; tokens go with their owner": async (e) => {
    const { tokens } = await withOwners(e);
    await tokens.insert(token("t1", "u1", 100));
    await tokens.insert(token("t2", "u1", 100));
    await tokens.insert(token("t3", "u2", 100));
    await tokens.touch("t1", 555);
    assertEquals((await tokens.byId("t1"))?.lastUsedAt, 555);
    await tokens.delete("t2");
    assertEquals(await tokens.byId("t2"), undefined);
    await e.raw("DELETE FROM users WHERE id = ?", "u1");
    assertEquals(ids(await tokens.listAll()), ["t3"]);
  },
  "a token inserted in a transaction that throws is not kept": async (e) => {
    const { tokens } = await withOwners(e);
    await assertRejects(() =>
      e.transactor.tx(async () => {
        await tokens.insert(token("t1", "u1", 100));
        throw new Error("Rolled back");
      })
    );
    assertEquals(await tokens.byId("t1"), undefined);
  },
});
