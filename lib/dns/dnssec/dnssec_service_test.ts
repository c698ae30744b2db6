import { assert, assertEquals, assertRejects } from "../../../tests/assert.ts";
import { rawRow, rawSet } from "../../../tests/helpers/raw_sql.ts";
import { tempStore } from "../../../tests/helpers/temp_store.ts";
import { dnsTestService } from "../../../tests/helpers/dns_service.ts";
import { ConflictError, UnprocessableError } from "../../errors.ts";
import type { Store } from "../../store/store.ts";
import { sqliteDnsRepos } from "../dns_repos.ts";
import { DnsIndex } from "../zone_index.ts";

async function setup(store: Store) {
  const index = new DnsIndex(sqliteDnsRepos(store));
  await index.load();
  const t = dnsTestService(store, { index });
  await t.service.createZone("alice", { name: "example.com", admin_email: "h@example.com" });
  return { ...t, index };
}

Deno.test("the answer index learns the zone's keys when DNSSEC is enabled and forgets them when disabled", async () => {
  await using t = await tempStore();
  const { service, index } = await setup(t.store);
  assertEquals(index.zone("example.com")!.signingKeys, []);
  assertEquals(index.zone("example.com")!.dnskeys, []);

  const status = await service.setDnssec("alice", "example.com", { enable: true });
  const z = index.zone("example.com")!;
  assertEquals(
    z.serial,
    (await service.getZone("example.com")).serial,
    "the index holds the new serial",
  );
  assertEquals(
    z.signingKeys.map((k) => [k.flags, k.algorithm, k.keyTag]),
    status.keys.map((k) => [k.flags, 13, k.key_tag]),
  );
  // The DNSKEY RRset: flags, protocol 3, algorithm, then the public key the status shows.
  assertEquals(
    z.dnskeys.map((
      d,
    ) => [(d[0] << 8) | d[1], d[2], d[3], btoa(String.fromCharCode(...d.slice(4)))]),
    status.keys.map((k) => [k.flags, 3, 13, k.public_key]),
  );
  assertEquals(z.signingKeys.map((k) => k.dnskey), z.dnskeys);
  assertEquals(z.signingKeys[0].sign(new Uint8Array([1, 2, 3])).length, 64);

  await service.setDnssec("alice", "example.com", { enable: false });
  assertEquals(index.zone("example.com")!.signingKeys, []);
  assertEquals(index.zone("example.com")!.dnskeys, []);
});

Deno.test("a published key is in the DNSKEY RRset but does not sign; a retired one stays in it and signs no more; a removed one leaves it", async () => {
  await using t = await tempStore();
  const { service, index } = await setup(t.store);
  const { keys } = await service.setDnssec("alice", "example.com", { enable: true });
  const zsk = keys.find((k) => k.key_type === "ZSK")!;
  rawSet(t.store, "dnssec_keys", { state: "published" }, { id: zsk.id });
  await index.invalidate("example.com");
  let z = index.zone("example.com")!;
  assertEquals(z.dnskeys.length, 2);
  assertEquals(z.signingKeys.map((k) => k.flags), [257]);
  rawSet(t.store, "dnssec_keys", { state: "retired" }, { id: zsk.id });
  await index.invalidate("example.com");
  z = index.zone("example.com")!;
  // RFC 7583 §3.2: retired, the key still validates the signatures caches hold.
  assertEquals([z.dnskeys.length, z.signingKeys.length], [2, 1]);
  rawSet(t.store, "dnssec_keys", { state: "removed" }, { id: zsk.id });
  await index.invalidate("example.com");
  z = index.zone("example.com")!;
  assertEquals([z.dnskeys.length, z.signingKeys.length], [1, 1]);
});

Deno.test("refusals name the field at fault and change nothing", async () => {
  await using t = await tempStore();
  const { service } = await setup(t.store);
  const refuse = async (
    input: Parameters<typeof service.setDnssec>[2],
    cls: new (...a: never[]) => Error,
  ) =>
    (await assertRejects(() => service.setDnssec("alice", "example.com", input), cls)) as {
      field?: string;
    };
  assertEquals(
    (await refuse({ enable: true, algorithm: "RSASHA1" }, UnprocessableError)).field,
    "algorithm",
  );
  assertEquals(
    (await refuse({ enable: true, algorithm: "RSASHA256", key_size: 1024 }, UnprocessableError))
      .field,
    "key_size",
  );
  assertEquals(
    (await refuse({ enable: true, key_size: 2048 }, UnprocessableError)).field,
    "key_size",
  );
  assertEquals(rawRow(t.store, "dnssec_keys", ["id"]), undefined);

  await service.setDnssec("alice", "example.com", { enable: true, algorithm: "ED25519" });
  const serial = (await service.getZone("example.com")).serial;
  const conflict = await refuse({ enable: true, algorithm: "ECDSAP256SHA256" }, ConflictError);
  assertEquals(conflict.field, "algorithm");
  const size = await refuse(
    { enable: true, algorithm: "ED25519", key_size: 255 },
    UnprocessableError,
  );
  assertEquals(size.field, "key_size");
  assertEquals((await service.getZone("example.com")).serial, serial);
  assert((await service.dnssecStatus("example.com")).keys.every((k) => k.algorithm === "ED25519"));

  await service.createZone("alice", { name: "example.org", admin_email: "h@example.org" });
  await service.setDnssec("alice", "example.org", { enable: true, algorithm: "RSASHA256" });
  const refuseOrg = (key_size: number) =>
    assertRejects(
      () => service.setDnssec("alice", "example.org", { enable: true, algorithm: "8", key_size }),
      ConflictError,
    ) as Promise<ConflictError>;
  assertEquals((await refuseOrg(3072)).field, "key_size");
});

Deno.test("the private key stays in the store: status, audit and events carry none of it", async () => {
  await using t = await tempStore();
  const { service, events, audit } = await setup(t.store);
  const status = await service.setDnssec("alice", "example.com", { enable: true, algorithm: "8" });
  await service.setDnssec("alice", "example.com", { enable: false });
  const texts = JSON.stringify([
    status,
    await service.dnssecStatus("example.com"),
    await service.getZone("example.com"),
    await service.exportZone("example.com"),
    await audit.list({ limit: 100, offset: 0 }),
    events,
  ]);
  for (const k of status.keys) {
    const { private_key } = rawRow<{ private_key: string }>(t.store, "dnssec_keys", [
      "private_key",
    ], { id: k.id })!;
    assert(private_key.length > 1000, "an RSA PKCS#8 key");
    for (const part of [private_key, private_key.slice(100, 140)]) {
      assert(!texts.includes(part), `${k.key_type} private key leaked`);
    }
  }
});
