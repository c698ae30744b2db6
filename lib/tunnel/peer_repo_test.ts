import { SqliteAsync } from "../store/sqlite_async.ts";
import { assertEquals, assertRejects } from "../../tests/assert.ts";
import { tempStore } from "../../tests/helpers/temp_store.ts";
import { isUniqueViolation } from "../store/store.ts";
import { SqliteInterfaceRepo } from "./interface_repo.ts";
import { interfaceRow, peerRow } from "./repo_fixtures_test.ts";
import { SqlitePeerRepo } from "./peer_repo.ts";

async function setup() {
  const t = await tempStore();
  const ifaces = new SqliteInterfaceRepo(SqliteAsync.of(t.store));
  const wg1 = interfaceRow();
  const wg2 = interfaceRow({ name: "wg2", address_v4: "10.9.0.1/24", listen_port: 51821 });
  await ifaces.insert(wg1);
  await ifaces.insert(wg2);
  return { t, repo: new SqlitePeerRepo(SqliteAsync.of(t.store)), wg1, wg2 };
}

Deno.test("SqlitePeerRepo.listTuples() orders by interface and name, filters, escapes LIKE and pages", async () => {
  const { t, repo, wg1, wg2 } = await setup();
  await using _ = t;
  await repo.insert(peerRow(wg2.id, { name: "zed", address: "10.9.0.2" }));
  await repo.insert(peerRow(wg1.id, { name: "b_1", address: "10.8.0.3", status: "disabled" }));
  await repo.insert(peerRow(wg1.id, { name: "a%1", address: "10.8.0.2", private_key: null }));
  const all = await repo.listTuples({});
  assertEquals(all.map((r) => r[2]), ["a%1", "b_1", "zed"]);
  const [first] = all;
  assertEquals(first.length, 15);
  assertEquals([first[1], first[4], first[10], first[11], first[12], first[13]], [
    wg1.id,
    "10.8.0.2",
    "enabled",
    0,
    1,
    1000,
  ]);
  assertEquals((await repo.listTuples({ search: "%" })).map((r) => r[2]), ["a%1"]);
  assertEquals((await repo.listTuples({ search: "B_" })).map((r) => r[2]), ["b_1"]);
  assertEquals((await repo.listTuples({ status: "disabled" })).map((r) => r[2]), ["b_1"]);
  assertEquals((await repo.listTuples({ interface_id: wg2.id })).map((r) => r[2]), ["zed"]);
  assertEquals((await repo.listTuples({ limit: 1, offset: 1 })).map((r) => r[2]), ["b_1"]);
  assertEquals(
    await Promise.all([
      repo.count({}),
      repo.count({ interface_id: wg1.id }),
      repo.count({ search: "_" }),
    ]),
    [
      3,
      2,
      1,
    ],
  );
});

Deno.test("SqlitePeerRepo reads single peers, finds holders of a key or name, and revokes", async () => {
  const { t, repo, wg1 } = await setup();
  await using _ = t;
  const p = peerRow(wg1.id);
  await repo.insert(p);
  assertEquals({ ...await repo.get(p.id) }, p);
  assertEquals((await repo.getWithInterfaceName(p.id))?.interface_name, "wg1");
  const listed = (await repo.getListed(p.id))!;
  assertEquals(
    [
      listed.interface_name,
      listed.interface_address,
      listed.has_private_key,
      listed.has_preshared_key,
    ],
    ["wg1", "10.8.0.1/24", true, true],
  );
  assertEquals("private_key" in listed, false);
  assertEquals((await repo.listedOf(wg1.id)).map((r) => r.id), [p.id]);
  assertEquals({ ...await repo.byPublicKey(p.public_key) }, { id: p.id, interface_id: wg1.id });
  assertEquals(await repo.idByName(wg1.id, "a"), p.id);
  assertEquals(await repo.idByName(wg1.id, "b"), undefined);
  assertEquals((await repo.namesAndAddresses(wg1.id)).map((r) => ({ ...r })), [
    { name: "a", address: "10.8.0.2" },
  ]);
  assertEquals((await repo.enabledForHost()).length, 1);
  await repo.update(p.id, { ...p, name: "c", keepalive: 25 }, 2000);
  assertEquals([(await repo.get(p.id))?.name, (await repo.get(p.id))?.keepalive], ["c", 25]);
  await repo.setStatus(p.id, "revoked", 3000);
  const revoked = (await repo.get(p.id))!;
  assertEquals([revoked.status, revoked.private_key, revoked.preshared_key], [
    "revoked",
    null,
    null,
  ]);
  assertEquals((await repo.enabledForHost()).length, 0);
  const err = await assertRejects(() => repo.insert(peerRow(wg1.id, { public_key: p.public_key })));
  assertEquals(isUniqueViolation(err), true);
  await repo.delete(p.id);
  assertEquals(await repo.get(p.id), undefined);
});
