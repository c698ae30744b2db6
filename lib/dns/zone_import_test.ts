import { assertEquals, assertRejects } from "../../tests/assert.ts";
import { tempStore } from "../../tests/helpers/temp_store.ts";
import { dnsTestService } from "../../tests/helpers/dns_service.ts";
import { ConflictError, UnprocessableError, ValidationError } from "../errors.ts";
import type { Store } from "../store/store.ts";

const setup = (store: Store) => dnsTestService(store);

const zone = { name: "Example.COM.", admin_email: "hostmaster@example.com" };

Deno.test("importZone() merges or replaces records and takes the file's SOA fields", async () => {
  await using t = await tempStore();
  const { service } = setup(t.store);
  await service.createZone("a", zone);
  await service.createRecord("a", "example.com", {
    domain: "old.example.com",
    type: "A",
    value: "192.0.2.1",
  });
  const file = `$TTL 300
@ SOA ns1 admin 2030010100 7200 900 1209600 60
@ NS ns1
@ NS ns2.example.net.
www A 192.0.2.80
old A 192.0.2.1
`;
  const merged = await service.importZone("a", "example.com", file);
  assertEquals([merged.created, merged.added, merged.skipped, merged.removed], [false, 1, 1, 0]);
  assertEquals(merged.serial, 2030010100, "a serial ahead in the file is kept");
  const z = await service.getZone("example.com");
  assertEquals([z.admin_email, z.refresh, z.minimum, z.default_ttl], [
    "admin@example.com",
    7200,
    60,
    300,
  ]);
  assertEquals(z.nameservers, ["ns1.example.com", "ns.provider.net", "ns2.example.net"]);
  const replaced = await service.importZone(
    "a",
    "example.com",
    file.replace("old A 192.0.2.1\n", ""),
    {
      replace: true,
    },
  );
  assertEquals([replaced.added, replaced.removed], [1, 2]);
  assertEquals((await service.getZone("example.com")).nameservers, [
    "ns1.example.com",
    "ns2.example.net",
  ]);
  assertEquals((await service.getZone("example.com")).records_count, 2);
  await assertRejects(
    () => service.importZone("a", "new.example", "www 60 A 192.0.2.1\n"),
    UnprocessableError,
    "no SOA",
  );
  await assertRejects(
    () => service.importZone("a", "example.com", "$TTL 60\nx CNAME a\nx A 192.0.2.1\n"),
    ConflictError,
  );
  assertEquals(
    (await service.getZone("example.com")).records_count,
    2,
    "a failed import changes nothing",
  );
});

Deno.test('importZone() refuses apex NS the API would refuse as nameservers: the root, a name with "/"', async () => {
  await using t = await tempStore();
  const { service } = setup(t.store);
  const file = (ns: string) =>
    `$TTL 300
@ SOA ns1 admin 1 7200 900 1209600 60
@ NS ns1
@ NS ${ns}
`;
  for (const ns of [".", "a/b.example.net."]) {
    const err = await assertRejects(
      () => service.importZone("a", "example.com", file(ns)),
      ValidationError,
      "Line 4: ",
    ) as ValidationError;
    assertEquals(err.field, "zone");
    assertEquals(await service.listZones(), [], `nothing imported for NS ${ns}`);
  }
  await service.importZone("a", "example.com", file("ns2.example.net."));
  const z = await service.getZone("example.com");
  assertEquals(z.nameservers, ["ns1.example.com", "ns2.example.net"]);
  // What the import set, the API takes back.
  await service.updateZone("a", "example.com", { nameservers: z.nameservers });
});
