import { assertEquals, assertRejects } from "../../tests/assert.ts";
import { rawRow } from "../../tests/helpers/raw_sql.ts";
import { tempStore } from "../../tests/helpers/temp_store.ts";
import { ConflictError } from "../errors.ts";
import { SqliteAsync } from "../store/sqlite_async.ts";
import { SqliteUserRepo } from "./user_repo.ts";

const user = (id: string, username: string) => ({
  id,
  username,
  email: "",
  role: "viewer" as const,
  passwordHash: "x",
  createdAt: 1,
});

Deno.test("SqliteUserRepo.insert() refuses a taken username in any letter case, naming the field", async () => {
  await using t = await tempStore();
  const repo = new SqliteUserRepo(SqliteAsync.of(t.store));
  await repo.insert(user("u1", "alice"));
  const err = await assertRejects(
    () => repo.insert(user("u2", "ALICE")),
    ConflictError,
  ) as ConflictError;
  assertEquals(err.message, 'User "ALICE" already exists');
  assertEquals([err.field, err.code], ["username", "duplicate_username"]);
  assertEquals(await repo.count(), 1);
  assertEquals((await repo.byUsername("Alice"))?.id, "u1");
});

Deno.test("SqliteUserRepo.setPasswordHash() bumps the auth epoch and says when the user is unknown", async () => {
  await using t = await tempStore();
  const repo = new SqliteUserRepo(SqliteAsync.of(t.store));
  await repo.insert(user("u1", "alice"));
  assertEquals(await repo.setPasswordHash("u1", "y", 2), true);
  assertEquals((await repo.byId("u1"))?.authEpoch, 1);
  assertEquals((await repo.byId("u1"))?.passwordHash, "y");
  assertEquals(await repo.setPasswordHash("nobody", "y", 2), false);
  const raw = rawRow<{ updated_at: number }>(t.store, "users", ["updated_at"], { id: "u1" });
  assertEquals(raw?.updated_at, 2);
});
