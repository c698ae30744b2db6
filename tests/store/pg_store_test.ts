/**
 * The PostgreSQL store's foundation against a real throwaway cluster:
 * concurrent migration, SERIALIZABLE transactions re-run on conflicts with
 * hooks after the commit only, unique violations as ConflictError naming the
 * field, and the statement timeout setting.
 */
import { assert, assertEquals, assertRejects } from "../assert.ts";
import { clusterPerFile, havePostgres } from "../helpers/postgres.ts";
import { ConflictError } from "../../lib/errors.ts";
import { conflictOnUnique, sqlState } from "../../lib/store/pg/errors.ts";
import { PgStore } from "../../lib/store/pg/pg_store.ts";
import { pgMigrations } from "../../lib/store/pg/migrations/mod.ts";

const cluster = clusterPerFile();
const freshUrl = () => cluster.freshUrl();

Deno.test("pg store", async (t) => {
  if (!havePostgres("pg store")) return;
  try {
    await t.step("two instances opening one database at once migrate it once", async () => {
      const url = await freshUrl();
      const [a, b] = await Promise.all([PgStore.open({ url }), PgStore.open({ url })]);
      try {
        const rows = await a.sql`SELECT version FROM schema_migrations ORDER BY version`;
        assertEquals(rows.map((r) => r.version), pgMigrations.map((m) => m.version));
        assertEquals(await b.version(), Math.max(...pgMigrations.map((m) => m.version)));
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });

    await t.step(
      "conflicting transactions are re-run and both land; hooks run after commit only",
      async () => {
        const store = await PgStore.open({ url: await freshUrl(), poolSize: 4 });
        try {
          await store.sql`INSERT INTO meta (key, value) VALUES ('n', '0')`;
          let attempts = 0;
          const hooks: string[] = [];
          const bothRead = Promise.withResolvers<void>();
          let readers = 0;
          const increment = (label: string) =>
            store.tx(async ({ sql, afterCommit }) => {
              attempts++;
              const [{ value }] = await sql`SELECT value FROM meta WHERE key = 'n'`;
              afterCommit(() => hooks.push(label));
              // First attempts wait for each other so that both read the same value.
              if (++readers <= 2) {
                if (readers === 2) bothRead.resolve();
                await bothRead.promise;
              }
              await sql`UPDATE meta SET value = ${String(Number(value) + 1)} WHERE key = 'n'`;
              return label;
            });
          assertEquals(await Promise.all([increment("a"), increment("b")]), ["a", "b"]);
          const [{ value }] = await store.sql`SELECT value FROM meta WHERE key = 'n'`;
          assertEquals(value, "2");
          assert(attempts >= 3, `one transaction was re-run (attempts: ${attempts})`);
          assertEquals(hooks.sort(), ["a", "b"]);
        } finally {
          await store.close();
        }
      },
    );

    await t.step("a throw rolls back and runs no hook", async () => {
      const store = await PgStore.open({ url: await freshUrl() });
      try {
        let hooked = false;
        await assertRejects(() =>
          store.tx(async ({ sql, afterCommit }) => {
            await sql`INSERT INTO meta (key, value) VALUES ('x', '1')`;
            afterCommit(() => (hooked = true));
            throw new Error("boom");
          })
        );
        assertEquals((await store.sql`SELECT key FROM meta`).length, 0);
        assertEquals(hooked, false);
      } finally {
        await store.close();
      }
    });

    await t.step(
      "a unique violation becomes a ConflictError naming the constraint's field",
      async () => {
        const store = await PgStore.open({ url: await freshUrl() });
        try {
          const add = (id: string, pub: string) =>
            store.sql`INSERT INTO interfaces (id, name, address_v4, mtu, private_key, public_key,
            created_at, updated_at) VALUES (${id}, 'wg0', ${`10.0.${id}.1/24`}, 1420, 'k', ${pub}, 0, 0)`;
          await add("1", "p1");
          const err = await add("2", "p2").catch((e) => e);
          const mapped = conflictOnUnique(err, {
            interfaces_name_key: {
              message: 'Interface "wg0" exists',
              field: "name",
              code: "duplicate_name",
            },
          }, { message: "Conflict" });
          assert(mapped instanceof ConflictError);
          assertEquals([mapped.message, mapped.field, mapped.code], [
            'Interface "wg0" exists',
            "name",
            "duplicate_name",
          ]);
          const other = new Error("not a violation");
          assertEquals(conflictOnUnique(other, {}, { message: "Conflict" }), other);
        } finally {
          await store.close();
        }
      },
    );

    await t.step("the statement timeout setting stops a long statement", async () => {
      const store = await PgStore.open({ url: await freshUrl(), statementTimeoutMs: 200 });
      try {
        const started = Date.now();
        const err = await store.sql`SELECT pg_sleep(5)`.catch((e) => e);
        assertEquals(sqlState(err), "57014");
        assert(Date.now() - started < 4000);
      } finally {
        await store.close();
      }
    });
  } finally {
    await cluster.stop();
  }
});
