/**
 * The settings repository (lib/settings/settings_repo.ts) behaves the same on
 * SQLite and PostgreSQL: unset keys, upsert as insert and as replace, the
 * order of `all()` by code point, and writes inside a transaction that rolls
 * back leave nothing behind.
 */
import { assertEquals, assertRejects } from "../assert.ts";
import { PgSettingsRepo } from "../../lib/settings/pg_settings_repo.ts";
import {
  type SettingsRepo,
  SqliteSettingsRepo,
  type StoredSetting,
} from "../../lib/settings/settings_repo.ts";
import { type Engine, repoContract } from "./engines.ts";

const repoOf = (e: Engine): SettingsRepo =>
  e.pick<SettingsRepo>({
    sqlite: (db) => new SqliteSettingsRepo(db),
    postgres: (db) => new PgSettingsRepo(db),
  });

const setting = (key: string, value: string, over: Partial<StoredSetting> = {}): StoredSetting => ({
  key,
  value,
  isSecret: false,
  description: `About ${key}`,
  updatedAt: 1_700_000_000_000,
  ...over,
});

repoContract("SettingsRepo", {
  "an unset key has no value and nothing is listed": async (e) => {
    const repo = repoOf(e);
    assertEquals(await repo.value("wireguard.server_host"), undefined);
    assertEquals(await repo.all(), []);
  },

  "upsert inserts, then replaces every field of the same key": async (e) => {
    const repo = repoOf(e);
    await repo.upsert(setting("wireguard.server_host", "vpn.example.org"));
    assertEquals(await repo.value("wireguard.server_host"), "vpn.example.org");
    const replaced = setting("wireguard.server_host", "s3cr3t", {
      isSecret: true,
      description: "Changed",
      updatedAt: 1_800_000_000_123,
    });
    await repo.upsert(replaced);
    assertEquals(await repo.all(), [replaced]);
    const rows = await e.raw<{ is_secret: number }>("SELECT is_secret FROM settings");
    assertEquals(rows.map((r) => Number(r.is_secret)), [1]);
  },

  "all() lists by key in code-point order": async (e) => {
    const repo = repoOf(e);
    for (const key of ["b.key", "B.key", "a.key", "_.key"]) await repo.upsert(setting(key, key));
    assertEquals((await repo.all()).map((s) => s.key), ["B.key", "_.key", "a.key", "b.key"]);
  },

  "an upsert inside a transaction lands with its commit and is undone by its rollback": async (
    e,
  ) => {
    const repo = repoOf(e);
    await e.transactor.tx(() => repo.upsert(setting("kept", "1")));
    await assertRejects(() =>
      e.transactor.tx(async () => {
        await repo.upsert(setting("kept", "2"));
        await repo.upsert(setting("undone", "1"));
        assertEquals(await repo.value("kept"), "2", "the transaction sees its own write");
        throw new Error("Rolled back on purpose");
      })
    );
    assertEquals(await repo.all(), [setting("kept", "1")]);
  },
});
