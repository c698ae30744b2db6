/**
 * The DNS API key repository (lib/dns/api_keys/api_key_repo.ts,
 * pg_api_key_repo.ts) behaves the same on SQLite and PostgreSQL: a key read
 * back by id and by hash with its scope, keys without expiry, listings newest
 * first (ties by id), use recorded, deletion, one row per hash, and rollback.
 */
import { assert, assertEquals, assertRejects } from "../assert.ts";
import {
  type ApiKeyRecord,
  type ApiKeyRepo,
  type NewApiKey,
  SqliteApiKeyRepo,
} from "../../lib/dns/api_keys/api_key_repo.ts";
import { PgApiKeyRepo } from "../../lib/dns/api_keys/pg_api_key_repo.ts";
import { type Engine, repoContract } from "./engines.ts";

const repoOf = (e: Engine): ApiKeyRepo =>
  e.pick<ApiKeyRepo>({
    sqlite: (db) => new SqliteApiKeyRepo(db),
    postgres: (db) => new PgApiKeyRepo(db),
  });

const key = (id: string, createdAt: number, expiresAt: number | null = null): NewApiKey => ({
  id,
  name: `key ${id}`,
  keyHash: `hash-${id}`,
  scope: { zones: ["example.org"], types: ["TXT"], names: ["_acme-challenge.*"], access: "write" },
  createdAt,
  expiresAt,
  createdBy: "admin",
});

const ids = (rows: ApiKeyRecord[]) => rows.map((k) => k.id);

repoContract("ApiKeyRepo", {
  "a key reads back by id and by hash, scope and null expiry included": async (e) => {
    const keys = repoOf(e);
    assertEquals(await keys.byId("k1"), undefined);
    assertEquals(await keys.byHash("hash-k1"), undefined);
    await keys.insert(key("k1", 100));
    await keys.insert({
      ...key("k2", 100, 5000),
      scope: { zones: "*", types: "*", names: "*", access: "read" },
    });
    const want = {
      id: "k1",
      name: "key k1",
      keyHash: "hash-k1",
      scope: {
        zones: ["example.org"],
        types: ["TXT"],
        names: ["_acme-challenge.*"],
        access: "write",
      },
      createdAt: 100,
      expiresAt: null,
      lastUsedAt: null,
      createdBy: "admin",
    };
    assertEquals(await keys.byId("k1"), want);
    assertEquals(await keys.byHash("hash-k1"), want);
    const k2 = await keys.byHash("hash-k2");
    assertEquals(k2?.expiresAt, 5000);
    assertEquals(k2?.scope, { zones: "*", types: "*", names: "*", access: "read" });
  },
  "the listing is newest first, ties by id descending": async (e) => {
    const keys = repoOf(e);
    assertEquals(await keys.list(), []);
    await keys.insert(key("k-a", 100));
    await keys.insert(key("k-c", 300));
    await keys.insert(key("k-b", 300));
    await keys.insert(key("k-d", 200));
    assertEquals(ids(await keys.list()), ["k-c", "k-b", "k-d", "k-a"]);
  },
  "touch records use; delete removes and says whether there was a key": async (e) => {
    const keys = repoOf(e);
    await keys.insert(key("k1", 100));
    await keys.insert(key("k2", 100));
    await keys.touch("k1", 555);
    assertEquals((await keys.byId("k1"))?.lastUsedAt, 555);
    assertEquals(await keys.delete("k2"), true);
    assertEquals(await keys.delete("k2"), false);
    assertEquals(await keys.byHash("hash-k2"), undefined);
    assertEquals(ids(await keys.list()), ["k1"]);
  },
  "one row per hash": async (e) => {
    const keys = repoOf(e);
    await keys.insert(key("k1", 100));
    await assertRejects(() => keys.insert({ ...key("k2", 100), keyHash: "hash-k1" }));
    assertEquals(ids(await keys.list()), ["k1"]);
  },
  "a key inserted in a transaction that throws is not kept": async (e) => {
    const keys = repoOf(e);
    await assertRejects(() =>
      e.transactor.tx(async () => {
        await keys.insert(key("k1", 100));
        throw new Error("Rolled back");
      })
    );
    assertEquals(await keys.byId("k1"), undefined);
    assert((await keys.list()).length === 0);
  },
});
