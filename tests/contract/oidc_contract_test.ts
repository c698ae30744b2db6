/**
 * The single sign-on repository (lib/auth/oidc/oidc_repo.ts, pg_oidc_repo.ts)
 * behaves the same on SQLite and PostgreSQL: providers stored, listed,
 * updated and deleted with a duplicate id refused; identities keyed by issuer
 * and subject, linked once, going with their user; rollback.
 */
import { assertEquals, assertRejects } from "../assert.ts";
import { PgOidcRepo } from "../../lib/auth/oidc/pg_oidc_repo.ts";
import {
  type OidcProviderRecord,
  type OidcRepo,
  SqliteOidcRepo,
} from "../../lib/auth/oidc/oidc_repo.ts";
import { PgUserRepo } from "../../lib/auth/pg_user_repo.ts";
import { SqliteUserRepo, type UserRepo } from "../../lib/auth/user_repo.ts";
import { ConflictError } from "../../lib/errors.ts";
import { type Engine, repoContract } from "./engines.ts";
import { seedOwners } from "./owners.ts";

async function repoOf(e: Engine): Promise<OidcRepo> {
  const r = e.pick<{ oidc: OidcRepo; users: UserRepo }>({
    sqlite: (db) => ({ oidc: new SqliteOidcRepo(db), users: new SqliteUserRepo(db) }),
    postgres: (db) => ({ oidc: new PgOidcRepo(db), users: new PgUserRepo(db) }),
  });
  await seedOwners(r.users);
  return r.oidc;
}

const corp: OidcProviderRecord = {
  id: "corp",
  displayName: "Corp SSO",
  issuer: "https://idp.example.org",
  clientId: "palisade",
  clientSecret: "v1.sealed",
  scopes: "openid email profile groups",
  claim: "groups",
  roleMap: { netops: "operator", admins: "administrator" },
  enabled: true,
  logoutAtProvider: true,
  createdAt: 100,
  updatedAt: 100,
};

repoContract("OidcRepo", {
  "providers are stored, listed by display name, updated and deleted": async (e) => {
    const repo = await repoOf(e);
    await repo.insertProvider(corp);
    const acme = { ...corp, id: "acme", displayName: "Acme", enabled: false };
    await repo.insertProvider({ ...acme, logoutAtProvider: false });
    assertEquals((await repo.providers()).map((p) => p.id), ["acme", "corp"]);
    assertEquals(await repo.provider("corp"), corp);
    assertEquals((await repo.provider("acme"))?.logoutAtProvider, false);
    const changed = {
      ...corp,
      displayName: "Corp",
      roleMap: { ops: "viewer" as const },
      logoutAtProvider: false,
    };
    assertEquals(await repo.updateProvider({ ...changed, updatedAt: 200 }), true);
    assertEquals(await repo.provider("corp"), { ...changed, updatedAt: 200 });
    assertEquals(await repo.updateProvider({ ...corp, id: "nope" }), false);
    assertEquals(await repo.deleteProvider("acme"), true);
    assertEquals(await repo.deleteProvider("acme"), false);
    assertEquals((await repo.providers()).map((p) => p.id), ["corp"]);
  },
  "a provider id is taken once": async (e) => {
    const repo = await repoOf(e);
    await repo.insertProvider(corp);
    const err = await assertRejects(() => repo.insertProvider(corp), ConflictError);
    assertEquals((err as ConflictError).field, "id");
  },
  "identities are keyed by issuer and subject, linked once, and go with their user": async (e) => {
    const repo = await repoOf(e);
    const id = { issuer: corp.issuer, subject: "s1", userId: "u1", providerId: "corp" };
    await repo.link({ ...id, createdAt: 5 });
    assertEquals(await repo.identity(corp.issuer, "s1"), { ...id, createdAt: 5 });
    assertEquals(await repo.identity("https://other.example", "s1"), undefined);
    await assertRejects(() => repo.link({ ...id, userId: "u2", createdAt: 6 }), ConflictError);
    assertEquals([await repo.hasIdentity("u1"), await repo.hasIdentity("u2")], [true, false]);
    await e.raw("DELETE FROM users WHERE id = ?", "u1");
    assertEquals(await repo.identity(corp.issuer, "s1"), undefined);
  },
  "a link made in a transaction that throws is not kept": async (e) => {
    const repo = await repoOf(e);
    await assertRejects(() =>
      e.transactor.tx(async () => {
        await repo.link({
          issuer: corp.issuer,
          subject: "s1",
          userId: "u1",
          providerId: "corp",
          createdAt: 1,
        });
        throw new Error("Rolled back");
      })
    );
    assertEquals(await repo.hasIdentity("u1"), false);
  },
});
