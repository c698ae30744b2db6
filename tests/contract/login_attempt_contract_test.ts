/**
 * The login-failure repository (lib/auth/login_attempt_repo.ts,
 * pg_login_attempt_repo.ts) behaves the same on SQLite and PostgreSQL:
 * counts by address, by pair and by username in any letter case, a window
 * that excludes its start, deletion up to and including a cutoff, the two
 * throttle tables kept apart, and rollback.
 */
import { assertEquals, assertRejects } from "../assert.ts";
import {
  type LoginAttemptRepo,
  type LoginFailureTable,
  SqliteLoginAttemptRepo,
} from "../../lib/auth/login_attempt_repo.ts";
import { PgLoginAttemptRepo } from "../../lib/auth/pg_login_attempt_repo.ts";
import { type Engine, repoContract } from "./engines.ts";

const repoOf = (e: Engine, table: LoginFailureTable = "login_failures"): LoginAttemptRepo =>
  e.pick<LoginAttemptRepo>({
    sqlite: (db) => new SqliteLoginAttemptRepo(db, table),
    postgres: (db) => new PgLoginAttemptRepo(db, table),
  });

repoContract("LoginAttemptRepo", {
  "counts by address, by pair and by username in any letter case": async (e) => {
    const repo = repoOf(e);
    await repo.add("Admin", "203.0.113.7", 100);
    await repo.add("ADMIN", "203.0.113.7", 300);
    await repo.add("bob", "203.0.113.7", 200);
    await repo.add("admin", "198.51.100.20", 400);
    assertEquals(await repo.failuresOfAddress("203.0.113.7", 0), { count: 3, newest: 300 });
    assertEquals(await repo.failuresOfPair("203.0.113.7", "aDmIn", 0), { count: 2, newest: 300 });
    assertEquals(await repo.countOfUsername("admin", 0), 3);
    assertEquals(await repo.failuresOfAddress("192.0.2.1", 0), { count: 0, newest: null });
    assertEquals(await repo.failuresOfPair("203.0.113.7", "carol", 0), {
      count: 0,
      newest: null,
    });
  },
  "the window excludes its start; deletion includes the cutoff": async (e) => {
    const repo = repoOf(e);
    for (const at of [100, 200, 300]) await repo.add("admin", "203.0.113.7", at);
    assertEquals(await repo.failuresOfAddress("203.0.113.7", 100), { count: 2, newest: 300 });
    assertEquals(await repo.failuresOfPair("203.0.113.7", "admin", 200), {
      count: 1,
      newest: 300,
    });
    assertEquals(await repo.countOfUsername("admin", 300), 0);
    await repo.deleteUpTo(200);
    assertEquals(await repo.failuresOfAddress("203.0.113.7", 0), { count: 1, newest: 300 });
  },
  "clearPair deletes the username in any letter case from that address only": async (e) => {
    const repo = repoOf(e);
    await repo.add("Admin", "203.0.113.7", 100);
    await repo.add("admin", "198.51.100.20", 100);
    await repo.add("bob", "203.0.113.7", 100);
    await repo.clearPair("203.0.113.7", "ADMIN");
    const rows = await e.raw("SELECT username, address FROM login_failures ORDER BY address");
    assertEquals(rows.map((r) => ({ ...r })), [
      { username: "admin", address: "198.51.100.20" },
      { username: "bob", address: "203.0.113.7" },
    ]);
  },
  "the admin and DNS throttles count in their own tables": async (e) => {
    const admin = repoOf(e, "login_failures");
    const dns = repoOf(e, "dns_login_failures");
    await admin.add("admin", "203.0.113.7", 100);
    await dns.add("admin", "203.0.113.7", 100);
    await dns.add("admin", "203.0.113.7", 200);
    assertEquals(await admin.countOfUsername("admin", 0), 1);
    assertEquals(await dns.countOfUsername("admin", 0), 2);
    await dns.clearPair("203.0.113.7", "admin");
    assertEquals(await admin.failuresOfAddress("203.0.113.7", 0), { count: 1, newest: 100 });
    assertEquals(await dns.failuresOfAddress("203.0.113.7", 0), { count: 0, newest: null });
  },
  "a failure added in a transaction that throws is not kept": async (e) => {
    const repo = repoOf(e);
    await repo.add("admin", "203.0.113.7", 100);
    await assertRejects(() =>
      e.transactor.tx(async () => {
        await repo.deleteUpTo(1000);
        await repo.add("admin", "203.0.113.7", 200);
        throw new Error("Rolled back");
      })
    );
    assertEquals(await repo.failuresOfAddress("203.0.113.7", 0), { count: 1, newest: 100 });
  },
});
