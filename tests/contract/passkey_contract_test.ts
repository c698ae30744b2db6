/**
 * The passkey repository (lib/auth/passkey/passkey_repo.ts,
 * pg_passkey_repo.ts) behaves the same on SQLite and PostgreSQL: a
 * credential id registered once, list/rename/remove only the owner's (and
 * all of one user's at once), counts of many users in one call, a use
 * recorded only while the counter is the one read, a challenge taken once
 * (and forgotten once expired), rows going with their user, and rollback.
 */
import { assertEquals, assertRejects } from "../assert.ts";
import { PgUserRepo } from "../../lib/auth/pg_user_repo.ts";
import {
  type PasskeyRecord,
  type PasskeyRepo,
  SqlitePasskeyRepo,
} from "../../lib/auth/passkey/passkey_repo.ts";
import { PgPasskeyRepo } from "../../lib/auth/passkey/pg_passkey_repo.ts";
import { SqliteUserRepo, type UserRepo } from "../../lib/auth/user_repo.ts";
import { type Engine, repoContract } from "./engines.ts";
import { seedOwners } from "./owners.ts";

async function reposOf(e: Engine): Promise<PasskeyRepo> {
  const r = e.pick<{ passkeys: PasskeyRepo; users: UserRepo }>({
    sqlite: (db) => ({ passkeys: new SqlitePasskeyRepo(db), users: new SqliteUserRepo(db) }),
    postgres: (db) => ({ passkeys: new PgPasskeyRepo(db), users: new PgUserRepo(db) }),
  });
  await seedOwners(r.users);
  return r.passkeys;
}

const key = (id: string, userId: string, createdAt: number): PasskeyRecord => ({
  id,
  userId,
  name: `key ${id}`,
  credentialId: `cred-${id}`,
  publicKey: `pk-${id}`,
  counter: 0,
  transports: ["internal", "hybrid"],
  createdAt,
  lastUsedAt: null,
});

repoContract("PasskeyRepo", {
  "a credential id is registered once; lists are the owner's, oldest first": async (e) => {
    const passkeys = await reposOf(e);
    assertEquals(await passkeys.add(key("k2", "u1", 200)), true);
    assertEquals(await passkeys.add(key("k1", "u1", 100)), true);
    assertEquals(await passkeys.add(key("k3", "u2", 50)), true);
    assertEquals(await passkeys.add({ ...key("k4", "u2", 300), credentialId: "cred-k1" }), false);
    assertEquals((await passkeys.list("u1")).map((p) => p.id), ["k1", "k2"]);
    assertEquals(await passkeys.count("u1"), 2);
    assertEquals(await passkeys.count("u2"), 1);
    assertEquals(await passkeys.byCredentialId("cred-k1"), key("k1", "u1", 100));
    assertEquals(await passkeys.byCredentialId("nope"), undefined);
    const empty = { ...key("k5", "u2", 400), transports: [] };
    await passkeys.add(empty);
    assertEquals((await passkeys.byCredentialId("cred-k5"))?.transports, []);
  },
  "rename and remove act on the owner's passkey only": async (e) => {
    const passkeys = await reposOf(e);
    await passkeys.add(key("k1", "u1", 100));
    assertEquals(await passkeys.rename("u2", "k1", "stolen"), false);
    assertEquals(await passkeys.rename("u1", "k1", "Laptop"), true);
    assertEquals((await passkeys.list("u1"))[0].name, "Laptop");
    assertEquals(await passkeys.remove("u2", "k1"), false);
    assertEquals(await passkeys.remove("u1", "k1"), true);
    assertEquals(await passkeys.remove("u1", "k1"), false);
    assertEquals(await passkeys.list("u1"), []);
  },
  "removeAll removes every passkey of one user and says how many": async (e) => {
    const passkeys = await reposOf(e);
    await passkeys.add(key("k1", "u1", 100));
    await passkeys.add(key("k2", "u1", 200));
    await passkeys.add(key("k3", "u2", 300));
    assertEquals(await passkeys.removeAll("u1"), 2);
    assertEquals(await passkeys.removeAll("u1"), 0);
    assertEquals(await passkeys.list("u1"), []);
    assertEquals((await passkeys.list("u2")).map((p) => p.id), ["k3"]);
  },
  "counts by user: only the given users, those with none absent": async (e) => {
    const passkeys = await reposOf(e);
    assertEquals(await passkeys.countsByUser(["u1", "u2"]), new Map());
    await passkeys.add(key("k1", "u1", 100));
    await passkeys.add(key("k2", "u1", 200));
    await passkeys.add(key("k3", "u2", 300));
    assertEquals(
      await passkeys.countsByUser(["u1", "u2", "nobody"]),
      new Map([["u1", 2], ["u2", 1]]),
    );
    assertEquals(await passkeys.countsByUser(["u2"]), new Map([["u2", 1]]));
    assertEquals(await passkeys.countsByUser([]), new Map());
  },
  "a use is recorded only while the counter is the one read": async (e) => {
    const passkeys = await reposOf(e);
    await passkeys.add(key("k1", "u1", 100));
    assertEquals(await passkeys.use("k1", 0, 5, 500), true);
    // A second sign-in that read the counter before the first wrote it.
    assertEquals(await passkeys.use("k1", 0, 5, 510), false);
    const p = (await passkeys.byCredentialId("cred-k1"))!;
    assertEquals([p.counter, p.lastUsedAt], [5, 500]);
  },
  "a challenge is taken once, and forgotten once expired": async (e) => {
    const passkeys = await reposOf(e);
    assertEquals(await passkeys.takeChallenge("c1", 1000, 100), true);
    assertEquals(await passkeys.takeChallenge("c1", 1000, 200), false);
    assertEquals(await passkeys.takeChallenge("c2", 1500, 200), true);
    // At 1000 c1 has expired: its row goes (a signed challenge past expiry is refused anyway).
    assertEquals(await passkeys.takeChallenge("c3", 2000, 1000), true);
    const left = await e.raw<{ challenge_hash: string }>(
      "SELECT challenge_hash FROM passkey_challenges_used ORDER BY challenge_hash",
    );
    assertEquals(left.map((r) => r.challenge_hash), ["c2", "c3"]);
  },
  "passkeys go with their user; an add in a transaction that throws is not kept": async (e) => {
    const passkeys = await reposOf(e);
    await passkeys.add(key("k1", "u1", 100));
    await passkeys.add(key("k2", "u2", 100));
    await e.raw("DELETE FROM users WHERE id = ?", "u2");
    assertEquals(await passkeys.count("u2"), 0);
    await assertRejects(() =>
      e.transactor.tx(async () => {
        await passkeys.add(key("k3", "u1", 200));
        throw new Error("Rolled back");
      })
    );
    assertEquals((await passkeys.list("u1")).map((p) => p.id), ["k1"]);
  },
});
