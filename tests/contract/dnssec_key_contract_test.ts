/**
 * The DNSSEC key repository (lib/dns/dnssec/key_repo.ts, pg_key_repo.ts)
 * behaves the same on SQLite and PostgreSQL: listings without the private
 * key and in one order, the signing keys with it, the zones due for a step,
 * the lifecycle writes (a removed key erased, the one removed before it
 * deleted), keys going with their zone, and rollback.
 */
import { assertEquals, assertRejects } from "../assert.ts";
import type { StoredKey } from "../../lib/dns/dnssec/key_repo.ts";
import { dnsReposOf, zoneRow } from "./dns_fixtures.ts";
import { type Engine, repoContract } from "./engines.ts";

const Z = "example.org";

function key(id: string, over: Partial<StoredKey> = {}): StoredKey {
  return {
    id,
    zone: Z,
    algorithm: 13,
    key_type: "ZSK",
    bits: 256,
    flags: 256,
    public_key: `pub-${id}`,
    private_key: `priv-${id}`,
    key_tag: 1000,
    state: "active",
    created_at: 1000,
    publish_at: 1000,
    activate_at: 1000,
    retire_at: null,
    remove_at: null,
    expires_at: null,
    ...over,
  };
}

async function seeded(e: Engine) {
  const repos = dnsReposOf(e);
  await repos.zones.insert(zoneRow(Z));
  await repos.zones.insert(zoneRow("other.test"));
  const k = repos.dnssecKeys;
  await k.insert(key("zsk2", { activate_at: 5000, state: "published", key_tag: 2 }));
  await k.insert(key("zsk1", { key_tag: 1 }));
  await k.insert(key("ksk", { key_type: "KSK", flags: 257, key_tag: 3, activate_at: 9000 }));
  await k.insert(key("other", { zone: "other.test", key_tag: 4 }));
  return repos;
}

const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

repoContract("DnssecKeyRepo", {
  "listings: KSK first, then by activation; never the private key; signing keys with it": async (
    e,
  ) => {
    const { dnssecKeys: k } = await seeded(e);
    const listed = await k.list(Z);
    assertEquals(ids(listed), ["ksk", "zsk1", "zsk2"]);
    assertEquals(listed.some((r) => "private_key" in r), false);
    const { private_key: _, ...zsk1 } = key("zsk1", { key_tag: 1 });
    assertEquals({ ...listed[1] }, zsk1);
    const signing = await k.signing(Z);
    assertEquals(signing.map((s) => [s.id, s.private_key]), [["ksk", "priv-ksk"], [
      "zsk1",
      "priv-zsk1",
    ]]);
  },

  "the lifecycle: due zones, schedule, activate, retire, remove": async (e) => {
    const { dnssecKeys: k } = await seeded(e);
    assertEquals(await k.dueZones(4999), []);
    assertEquals(await k.dueZones(5000), [Z]);
    await k.activate("zsk2");
    await k.schedule("zsk1", 6000, 8000);
    assertEquals(await k.dueZones(5999), []);
    assertEquals(await k.dueZones(6000), [Z]);
    await k.retire("zsk1", 8000);
    const zsk1 = (await k.list(Z)).find((r) => r.id === "zsk1")!;
    assertEquals([zsk1.state, zsk1.retire_at, zsk1.remove_at, zsk1.expires_at], [
      "retired",
      6000,
      8000,
      8000,
    ]);
    assertEquals(await k.dueZones(8000), [Z]);
    await k.remove("zsk1");
    assertEquals(ids(await k.list(Z)), ["ksk", "zsk2"]);
    assertEquals(ids(await k.listWithRemoved(Z)), ["ksk", "zsk2", "zsk1"]);
    const [raw] = await e.raw<{ private_key: string; state: string }>(
      "SELECT private_key, state FROM dnssec_keys WHERE id = ?",
      "zsk1",
    );
    assertEquals([raw.private_key, raw.state], ["", "removed"]);
    // The next removal of a ZSK deletes the one removed before it.
    await k.remove("zsk2");
    assertEquals(ids(await k.listWithRemoved(Z)), ["ksk", "zsk2"]);
  },

  "keys go with deleteAll() and with their zone": async (e) => {
    const { zones, dnssecKeys: k } = await seeded(e);
    await k.deleteAll(Z);
    assertEquals(await k.listWithRemoved(Z), []);
    assertEquals(ids(await k.list("other.test")), ["other"]);
    await zones.delete("other.test");
    assertEquals(await k.listWithRemoved("other.test"), []);
  },

  "writes inside a transaction that rolls back are undone": async (e) => {
    const { dnssecKeys: k } = await seeded(e);
    await assertRejects(() =>
      e.transactor.tx(async () => {
        await k.insert(key("new"));
        await k.remove("zsk1");
        throw new Error("Rolled back on purpose");
      })
    );
    assertEquals(ids(await k.listWithRemoved(Z)), ["ksk", "zsk1", "zsk2"]);
  },
});
