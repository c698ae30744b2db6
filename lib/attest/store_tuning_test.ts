import { assertEquals } from "../../tests/assert.ts";
import { tempStore } from "../../tests/helpers/temp_store.ts";
import { Store } from "../store/store.ts";
import { ATTEST_STORE_TUNING } from "./store_tuning.ts";

Deno.test("a new store file opened with the attestation tuning has 2 KiB pages; an existing file keeps its own", async () => {
  await using t = await tempStore(ATTEST_STORE_TUNING);
  assertEquals(t.store.get<{ page_size: number }>("PRAGMA page_size")?.page_size, 2048);
  const path = `${t.store.path}.old`;
  const { DatabaseSync } = await import("node:sqlite");
  const old = new DatabaseSync(path);
  old.exec("PRAGMA page_size = 4096; CREATE TABLE x (a)");
  old.close();
  const reopened = Store.open(path, { tuning: ATTEST_STORE_TUNING });
  try {
    assertEquals(reopened.get<{ page_size: number }>("PRAGMA page_size")?.page_size, 4096);
  } finally {
    reopened.close();
  }
});
