import { SqliteAsync } from "../store/sqlite_async.ts";
import { assertEquals } from "../../tests/assert.ts";
import { tempStore } from "../../tests/helpers/temp_store.ts";
import { SqliteInterfaceRepo } from "./interface_repo.ts";
import { SqlitePeerRepo } from "./peer_repo.ts";
import { interfaceRow, peerRow } from "./repo_fixtures_test.ts";

Deno.test("SqliteInterfaceRepo writes, reads back, counts peers and deletes them with the interface", async () => {
  await using t = await tempStore();
  const repo = new SqliteInterfaceRepo(SqliteAsync.of(t.store));
  const peers = new SqlitePeerRepo(SqliteAsync.of(t.store));
  const b = interfaceRow({ name: "wg2", address_v4: "10.9.0.1/24", listen_port: null });
  const a = interfaceRow();
  await repo.insert(b);
  await repo.insert(a);
  assertEquals({ ...await repo.get(a.id) }, a);
  assertEquals(await repo.get("nope"), undefined);
  assertEquals((await repo.allByName()).map((r) => r.name), ["wg1", "wg2"]);
  assertEquals(await repo.listenPorts(), [51820]);
  await peers.insert(peerRow(a.id));
  await peers.insert(peerRow(a.id, { name: "b", address: "10.8.0.3", status: "disabled" }));
  assertEquals((await repo.listCounted()).map((r) => [r.name, r.peer_count]), [["wg1", 2], [
    "wg2",
    0,
  ]]);
  assertEquals((await repo.getCounted(a.id))?.peer_count, 2);
  assertEquals({ ...await repo.counts() }, { interfaces: 2, peers: 2, enabled_peers: 1 });
  await repo.update(
    a.id,
    { name: "wg7", address_v4: "10.8.0.1/16", listen_port: 51900, mtu: 1380 },
    2000,
  );
  await repo.setEnabled(a.id, false, 3000);
  assertEquals({ ...await repo.get(a.id) }, {
    ...a,
    name: "wg7",
    address_v4: "10.8.0.1/16",
    listen_port: 51900,
    mtu: 1380,
    enabled: 0,
    updated_at: 3000,
  });
  assertEquals((await repo.summaries()).map((s) => s.name).sort(), ["wg2", "wg7"]);
  await repo.delete(a.id);
  assertEquals({ ...await repo.counts() }, { interfaces: 1, peers: 0, enabled_peers: 0 });
});
