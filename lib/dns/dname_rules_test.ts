import { assertEquals, assertRejects } from "../../tests/assert.ts";
import { dnsTestService } from "../../tests/helpers/dns_service.ts";
import { tempStore } from "../../tests/helpers/temp_store.ts";
import { ConflictError, UnprocessableError, ValidationError } from "../errors.ts";
import type { Store } from "../store/store.ts";

async function zone(store: Store) {
  const { service } = dnsTestService(store);
  await service.createZone("a", { name: "example.com", admin_email: "hostmaster@example.com" });
  const create = (domain: string, type: string, value: string) => () =>
    service.createRecord("a", "example.com", { domain, type, value });
  return { service, create };
}

Deno.test("DNAME is stored as one absolute target name, written DNAME and not TYPE39", async () => {
  await using t = await tempStore();
  const { service, create } = await zone(t.store);
  const r = await create("old.example.com", "dname", "New.Example.NET")();
  assertEquals([r.type, r.value], ["DNAME", "new.example.net."]);
  assertEquals((await create("root.example.com", "DNAME", ".")()).value, ".");
  // RFC 3597 input of type 39 is read with the DNAME codec and stored as a DNAME.
  const generic = await create("x.example.com", "TYPE39", "\\# 1 00")();
  assertEquals([generic.type, generic.value], ["DNAME", "."]);
  await assertRejects(create("y.example.com", "DNAME", "a..b"), ValidationError);
  await assertRejects(
    create("z.example.com", "DNAME", "a.example.net b.example.net"),
    ValidationError,
  );
  assertEquals((await service.getZone("example.com")).records_count, 4);
});

Deno.test("a DNAME owner holds no CNAME and no second DNAME (RFC 6672 §2.4)", async () => {
  await using t = await tempStore();
  const { create } = await zone(t.store);
  await create("d.example.com", "DNAME", "example.net")();
  await assertRejects(
    create("d.example.com", "CNAME", "x.example.net"),
    ConflictError,
    "conflicts",
  );
  await assertRejects(
    create("d.example.com", "DNAME", "example.org"),
    ConflictError,
    'Record "d.example.com" of type "DNAME" conflicts with the existing DNAME',
  );
  await create("c.example.com", "CNAME", "x.example.net")();
  await assertRejects(create("c.example.com", "DNAME", "example.net"), ConflictError, "CNAME");
  // Other data beside a DNAME is allowed.
  await create("d.example.com", "A", "192.0.2.1")();
  await create("d.example.com", "TXT", "beside")();
});

Deno.test("nothing lies below a DNAME, in either order, wildcards and delegations included", async () => {
  await using t = await tempStore();
  const { create } = await zone(t.store);
  await create("d.example.com", "DNAME", "example.net")();
  for (
    const [domain, type, value] of [
      ["www.d.example.com", "A", "192.0.2.1"],
      ["a.b.d.example.com", "TXT", "deep"],
      ["*.d.example.com", "A", "192.0.2.2"],
      ["sub.d.example.com", "NS", "ns.example.net"],
    ]
  ) {
    await assertRejects(
      create(domain, type, value),
      UnprocessableError,
      `Record "${domain}" lies below the DNAME at "d.example.com"`,
    );
  }
  await create("host.e.example.com", "A", "192.0.2.3")();
  await assertRejects(
    create("e.example.com", "DNAME", "example.net"),
    UnprocessableError,
    'Record "e.example.com" of type "DNAME" cannot be added: records exist below it',
  );
  // A sibling whose name merely ends the same way is not below it.
  await create("xd.example.com", "A", "192.0.2.4")();
});

Deno.test("a DNAME at the apex sits beside the SOA and NS; none at a wildcard name (RFC 4592 §4.4)", async () => {
  await using t = await tempStore();
  const { service, create } = await zone(t.store);
  await create("example.com", "DNAME", "example.net")();
  assertEquals((await service.listRecords("example.com", "DNAME")).records.length, 1);
  await assertRejects(
    create("www.example.com", "A", "192.0.2.1"),
    UnprocessableError,
    'lies below the DNAME at "example.com"',
  );
  await service.createZone("a", { name: "example.org", admin_email: "hostmaster@example.org" });
  await assertRejects(
    () =>
      service.createRecord("a", "example.org", {
        domain: "*.w.example.org",
        type: "DNAME",
        value: "example.net",
      }),
    UnprocessableError,
    'Record "*.w.example.org" of type "DNAME" cannot have a wildcard owner',
  );
});

Deno.test("a zone file's DNAME is imported and exported; data below it fails the import at its line", async () => {
  await using t = await tempStore();
  const { service } = dnsTestService(t.store);
  await service.importZone(
    "a",
    "example.com",
    "$ORIGIN example.com.\n$TTL 300\n@ SOA ns1 hostmaster 1 3600 900 1209600 300\n@ NS ns1.example.net.\nold DNAME new.example.net.\n",
  );
  assertEquals(
    (await service.exportZone("example.com")).split("\n").filter((l) => l.includes("DNAME")),
    ["old\t300\tIN\tDNAME\tnew.example.net."],
  );
  await assertRejects(
    () =>
      service.importZone("a", "example.com", "$ORIGIN example.com.\n$TTL 60\nx.old A 192.0.2.1\n"),
    UnprocessableError,
    'Line 3: Record "x.old.example.com" lies below the DNAME at "old.example.com"',
  );
});
