/**
 * The `meta` repository (lib/system/meta_repo.ts) on SQLite and PostgreSQL:
 * the first writer of a key wins, and secrets made by `metaSecret()` racing
 * on one database (two instances starting at once) come out the same.
 */
import { assertEquals } from "../assert.ts";
import { metaSecret } from "../../lib/auth/meta_secret.ts";
import { type MetaRepo, SqliteMetaRepo } from "../../lib/system/meta_repo.ts";
import { PgMetaRepo } from "../../lib/system/pg_meta_repo.ts";
import { type Engine, repoContract } from "./engines.ts";

const repoOf = (e: Engine): MetaRepo =>
  e.pick<MetaRepo>({
    sqlite: (db) => new SqliteMetaRepo(db),
    postgres: (db) => new PgMetaRepo(db),
  });

repoContract("MetaRepo", {
  "an absent key reads undefined; the first value stored under a key stays": async (e) => {
    const repo = repoOf(e);
    assertEquals(await repo.get("k"), undefined);
    await repo.insertIfAbsent("k", "first");
    await repo.insertIfAbsent("k", "second");
    assertEquals(await repo.get("k"), "first");
  },

  "secrets made at once for one key are one secret of the asked length": async (e) => {
    const repo = repoOf(e);
    const made = await Promise.all(Array.from({ length: 8 }, () => metaSecret(repo, "s", 32)));
    const b64 = made.map((s) => btoa(String.fromCharCode(...s)));
    assertEquals(new Set(b64).size, 1);
    assertEquals(made[0].length, 32);
    assertEquals(await repo.get("s"), b64[0]);
  },
});
