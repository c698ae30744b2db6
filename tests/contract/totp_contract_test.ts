/**
 * The two-factor repository (lib/auth/totp_repo.ts, pg_totp_repo.ts)
 * behaves the same on SQLite and PostgreSQL: enrolment pending until
 * enabled, restarting enrolment, a time step taken once and never an older
 * one, recovery codes used once each and replaced only while enabled,
 * removal, rows going with their user, which of many users have TOTP on in
 * one call, and rollback.
 */
import { assertEquals, assertRejects } from "../assert.ts";
import { PgTotpRepo } from "../../lib/auth/pg_totp_repo.ts";
import { PgUserRepo } from "../../lib/auth/pg_user_repo.ts";
import { SqliteTotpRepo, type TotpRepo } from "../../lib/auth/totp_repo.ts";
import { SqliteUserRepo, type UserRepo } from "../../lib/auth/user_repo.ts";
import { type Engine, repoContract } from "./engines.ts";
import { seedOwners } from "./owners.ts";

async function reposOf(e: Engine): Promise<TotpRepo> {
  const r = e.pick<{ totp: TotpRepo; users: UserRepo }>({
    sqlite: (db) => ({ totp: new SqliteTotpRepo(db), users: new SqliteUserRepo(db) }),
    postgres: (db) => ({ totp: new PgTotpRepo(db), users: new PgUserRepo(db) }),
  });
  await seedOwners(r.users);
  return r.totp;
}

const HASHES = ["h0", "h1", "h2"];

repoContract("TotpRepo", {
  "enrolment is pending until enabled, and restarting it replaces the secret": async (e) => {
    const totp = await reposOf(e);
    assertEquals(await totp.byUser("u1"), undefined);
    await totp.begin("u1", "sealed-1", 100);
    assertEquals(await totp.byUser("u1"), {
      userId: "u1",
      secret: "sealed-1",
      createdAt: 100,
      enabledAt: null,
      lastStep: null,
    });
    // A pending enrolment takes no step.
    assertEquals(await totp.claimStep("u1", 5), false);
    assertEquals(await totp.enable("u1", 7, 200, HASHES), true);
    // Enabling again (a second confirmation racing the first) changes nothing.
    assertEquals(await totp.enable("u1", 8, 250, ["other"]), false);
    assertEquals(await totp.enable("u2", 8, 250, ["other"]), false);
    assertEquals(await totp.byUser("u1"), {
      userId: "u1",
      secret: "sealed-1",
      createdAt: 100,
      enabledAt: 200,
      lastStep: 7,
    });
    assertEquals(await totp.recoveryCodesLeft("u1"), 3);
    await totp.begin("u1", "sealed-2", 300);
    assertEquals((await totp.byUser("u1"))?.enabledAt, null);
    assertEquals((await totp.byUser("u1"))?.secret, "sealed-2");
    assertEquals(await totp.recoveryCodesLeft("u1"), 0);
  },
  "a time step is taken once, and never one older than the last": async (e) => {
    const totp = await reposOf(e);
    await totp.begin("u1", "s", 100);
    await totp.enable("u1", 10, 100, []);
    assertEquals(await totp.claimStep("u1", 10), false);
    assertEquals(await totp.claimStep("u1", 9), false);
    assertEquals(await totp.claimStep("u1", 11), true);
    assertEquals(await totp.claimStep("u1", 11), false);
    assertEquals((await totp.byUser("u1"))?.lastStep, 11);
    assertEquals(await totp.claimStep("u2", 12), false);
  },
  "recovery codes are used once each, and only the owner's": async (e) => {
    const totp = await reposOf(e);
    await totp.begin("u1", "s", 100);
    await totp.enable("u1", 1, 100, HASHES);
    assertEquals(await totp.useRecoveryCode("u2", "h0", 150), false);
    assertEquals(await totp.useRecoveryCode("u1", "h0", 150), true);
    assertEquals(await totp.useRecoveryCode("u1", "h0", 160), false);
    assertEquals(await totp.useRecoveryCode("u1", "nope", 160), false);
    assertEquals(await totp.recoveryCodesLeft("u1"), 2);
    const used = await e.raw<{ used_at: number | string }>(
      "SELECT used_at FROM user_recovery_codes WHERE code_hash = ?",
      "h0",
    );
    assertEquals(used.map((r) => Number(r.used_at)), [150]);
  },
  "recovery codes are replaced, used ones too, only while two-factor sign-in is on": async (e) => {
    const totp = await reposOf(e);
    assertEquals(await totp.replaceRecoveryCodes("u1", ["n0"]), false);
    await totp.begin("u1", "s", 100);
    assertEquals(await totp.replaceRecoveryCodes("u1", ["n0"]), false);
    assertEquals(await totp.recoveryCodesLeft("u1"), 0);
    await totp.enable("u1", 1, 100, HASHES);
    await totp.begin("u2", "s", 100);
    await totp.enable("u2", 1, 100, HASHES);
    assertEquals(await totp.useRecoveryCode("u1", "h0", 150), true);
    assertEquals(await totp.replaceRecoveryCodes("u1", ["n0", "n1", "n2", "n3"]), true);
    assertEquals(await totp.recoveryCodesLeft("u1"), 4);
    assertEquals(await totp.useRecoveryCode("u1", "h1", 160), false);
    assertEquals(await totp.useRecoveryCode("u1", "n1", 160), true);
    // Another user's codes are left alone.
    assertEquals(await totp.recoveryCodesLeft("u2"), 3);
    assertEquals(await totp.useRecoveryCode("u2", "h1", 170), true);
  },
  "which of the given users have TOTP on: a pending enrolment is not, others are not listed":
    async (e) => {
      const totp = await reposOf(e);
      assertEquals(await totp.enabledUsers(["u1", "u2"]), new Set());
      await totp.begin("u1", "s", 100);
      await totp.begin("u2", "s", 100);
      await totp.enable("u1", 1, 100, HASHES);
      assertEquals(await totp.enabledUsers(["u1", "u2", "nobody"]), new Set(["u1"]));
      assertEquals(await totp.enabledUsers(["u2"]), new Set());
      assertEquals(await totp.enabledUsers([]), new Set());
    },
  "remove drops the enrolment and codes; rows go with their user": async (e) => {
    const totp = await reposOf(e);
    for (const u of ["u1", "u2"]) {
      await totp.begin(u, "s", 100);
      await totp.enable(u, 1, 100, HASHES);
    }
    await totp.remove("u1");
    assertEquals(await totp.byUser("u1"), undefined);
    assertEquals(await totp.recoveryCodesLeft("u1"), 0);
    await e.raw("DELETE FROM users WHERE id = ?", "u2");
    assertEquals(await totp.byUser("u2"), undefined);
    assertEquals(await e.raw("SELECT code_hash FROM user_recovery_codes"), []);
  },
  "an enrolment enabled in a transaction that throws is not kept": async (e) => {
    const totp = await reposOf(e);
    await totp.begin("u1", "s", 100);
    await assertRejects(() =>
      e.transactor.tx(async () => {
        await totp.enable("u1", 3, 200, HASHES);
        throw new Error("Rolled back");
      })
    );
    assertEquals((await totp.byUser("u1"))?.enabledAt, null);
    assertEquals(await totp.recoveryCodesLeft("u1"), 0);
  },
});
