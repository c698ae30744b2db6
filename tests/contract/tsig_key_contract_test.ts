/**
 * The TSIG key repository (lib/dns/tsig/key_repo.ts, pg_key_repo.ts) behaves
 * the same on SQLite and PostgreSQL: listings by name without the secret,
 * the secret only through withSecret(), a taken name as a ConflictError,
 * deletion, and rollback.
 */
import { assertEquals, assertRejects } from "../assert.ts";
import { ConflictError } from "../../lib/errors.ts";
import type { StoredTsigKey } from "../../lib/dns/tsig/key_repo.ts";
import { dnsReposOf } from "./dns_fixtures.ts";
import { repoContract } from "./engines.ts";

function key(name: string, over: Partial<StoredTsigKey> = {}): StoredTsigKey {
  return {
    name,
    algorithm: "hmac-sha256",
    zones: [],
    permissions: ["transfer"],
    created_at: 1000,
    secret: btoa(`secret of ${name}`),
    ...over,
  };
}

repoContract("TsigKeyRepo", {
  "insert, list by name without secrets, get, withSecret, delete": async (e) => {
    const { tsigKeys: k } = dnsReposOf(e);
    await k.insert(key("xfr.example.org", { zones: ["example.org"] }));
    await k.insert(key("a-update.example.org", { permissions: ["transfer", "update"] }));
    const listed = await k.list();
    assertEquals(listed.map((r) => r.name), ["a-update.example.org", "xfr.example.org"]);
    assertEquals(listed.some((r) => "secret" in r), false);
    const { secret: _, ...xfr } = key("xfr.example.org", { zones: ["example.org"] });
    assertEquals(await k.get("xfr.example.org"), xfr);
    assertEquals(
      await k.withSecret("xfr.example.org"),
      key("xfr.example.org", { zones: ["example.org"] }),
    );
    assertEquals(await k.get("nope.example.org"), undefined);
    assertEquals(await k.withSecret("nope.example.org"), undefined);
    await k.delete("xfr.example.org");
    assertEquals((await k.list()).map((r) => r.name), ["a-update.example.org"]);
  },

  "a taken name is a ConflictError naming the field": async (e) => {
    const { tsigKeys: k } = dnsReposOf(e);
    await k.insert(key("xfr.example.org"));
    const err = await assertRejects(
      () => k.insert(key("xfr.example.org")),
      ConflictError,
    ) as ConflictError;
    assertEquals([err.message, err.field], ['TSIG key "xfr.example.org" already exists', "name"]);
  },

  "an insert inside a transaction that rolls back leaves no key": async (e) => {
    const { tsigKeys: k } = dnsReposOf(e);
    await assertRejects(() =>
      e.transactor.tx(async () => {
        await k.insert(key("xfr.example.org"));
        throw new Error("Rolled back on purpose");
      })
    );
    assertEquals(await k.list(), []);
  },
});
