import { assertEquals } from "../../../tests/assert.ts";
import { Store } from "../store.ts";
import { migrations } from "./mod.ts";

Deno.test("migration 6 gives the sessions of an older file their expiry buckets and indexes those", async () => {
  const dir = await Deno.makeTempDir({ prefix: "palisade-migration-" });
  try {
    const path = `${dir}/palisade.db`;
    const old = Store.open(path, { migrations: migrations.filter((m) => m.version < 6) });
    for (
      const [id, expires] of [["01", 599_999], ["02", 600_000], ["03", 1_800_000_123]] as const
    ) {
      old.run(
        `INSERT INTO attest_sessions (session_id, public_key, salt, last_hash, pending_step, pending_order,
           gene_state, program, created_at, expires_at) VALUES (?, '', '', '', 1, '', x'00', '', 0, ?)`,
        id,
        expires,
      );
    }
    old.close();
    const store = Store.open(path);
    try {
      assertEquals(store.version, migrations.at(-1)!.version);
      const rows = store.all<{ session_id: string; expires_bucket: number }>(
        "SELECT session_id, expires_bucket FROM attest_sessions ORDER BY session_id",
      ).map((r) => [r.session_id, r.expires_bucket]);
      assertEquals(rows, [["01", 0], ["02", 1], ["03", 3000]]);
      const indexes = store.all<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'attest_sessions' AND sql IS NOT NULL",
      ).map((r) => r.name);
      assertEquals(indexes, ["attest_sessions_expires_bucket"]);
    } finally {
      store.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
