/**
 * The session repository (lib/auth/session_repo.ts, pg_session_repo.ts)
 * behaves the same on SQLite and PostgreSQL: a session read with its user's
 * current role, sliding, deletion of one, of a user's and of the expired
 * (expiry at or before `now`) with their counts, sessions going with their
 * user, and rollback.
 */
import { assertEquals, assertRejects } from "../assert.ts";
import { PgSessionRepo } from "../../lib/auth/pg_session_repo.ts";
import { PgUserRepo } from "../../lib/auth/pg_user_repo.ts";
import {
  type NewSession,
  type SessionRepo,
  SqliteSessionRepo,
} from "../../lib/auth/session_repo.ts";
import { SqliteUserRepo, type UserRepo } from "../../lib/auth/user_repo.ts";
import { type Engine, repoContract } from "./engines.ts";
import { seedOwners } from "./owners.ts";

type Repos = { sessions: SessionRepo; users: UserRepo };

async function withUsers(e: Engine): Promise<Repos> {
  const r = e.pick<Repos>({
    sqlite: (db) => ({ sessions: new SqliteSessionRepo(db), users: new SqliteUserRepo(db) }),
    postgres: (db) => ({ sessions: new PgSessionRepo(db), users: new PgUserRepo(db) }),
  });
  await seedOwners(r.users);
  return r;
}

const session = (id: string, userId: string, expiresAt: number): NewSession => ({
  id,
  secretHash: `hash-${id}`,
  userId,
  createdAt: 100,
  expiresAt,
  address: "203.0.113.7",
  userAgent: "test",
});

const present = async (repo: SessionRepo, ids: string[]) =>
  (await Promise.all(ids.map((id) => repo.withUser(id)))).map((s) => s !== undefined);

repoContract("SessionRepo", {
  "a session is read with its user's current role and slides": async (e) => {
    const { sessions, users } = await withUsers(e);
    assertEquals(await sessions.withUser("s1"), undefined);
    await sessions.insert(session("s1", "u1", 1000));
    const user = { id: "u1", username: "alice", email: "alice@example.org", role: "operator" };
    assertEquals(await sessions.withUser("s1"), {
      id: "s1",
      secretHash: "hash-s1",
      createdAt: 100,
      expiresAt: 1000,
      lastSeen: 100,
      user,
    });
    await users.setRole("u1", "viewer", 200);
    await sessions.slide("s1", 500, 2000);
    const slid = await sessions.withUser("s1");
    assertEquals([slid?.lastSeen, slid?.expiresAt, slid?.user.role], [500, 2000, "viewer"]);
    const [row] = await e.raw("SELECT address, user_agent FROM sessions WHERE id = ?", "s1");
    assertEquals({ ...row }, { address: "203.0.113.7", user_agent: "test" });
  },
  "deletion of one, of a user's, and of the expired, with counts": async (e) => {
    const { sessions } = await withUsers(e);
    const all = ["s1", "s2", "s3", "s4", "s5"];
    await sessions.insert(session("s1", "u1", 1000));
    await sessions.insert(session("s2", "u1", 2000));
    await sessions.insert(session("s3", "u2", 1000));
    await sessions.insert(session("s4", "u2", 1001));
    await sessions.insert(session("s5", "u2", 3000));
    await sessions.delete("s5");
    assertEquals(await present(sessions, all), [true, true, true, true, false]);
    assertEquals(await sessions.deleteExpired(1000), 2, "an expiry equal to now counts");
    assertEquals(await present(sessions, all), [false, true, false, true, false]);
    assertEquals(await sessions.deleteForUser("u1"), 1);
    assertEquals(await sessions.deleteForUser("u1"), 0);
    assertEquals(await present(sessions, all), [false, false, false, true, false]);
    await e.raw("DELETE FROM users WHERE id = ?", "u2");
    assertEquals(await present(sessions, all), [false, false, false, false, false]);
  },
  "a session inserted in a transaction that throws is not kept": async (e) => {
    const { sessions } = await withUsers(e);
    await assertRejects(() =>
      e.transactor.tx(async () => {
        await sessions.insert(session("s1", "u1", 1000));
        throw new Error("Rolled back");
      })
    );
    assertEquals(await sessions.withUser("s1"), undefined);
  },
});
