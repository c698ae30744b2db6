import {
  assert,
  assertEquals,
  assertMatch,
  assertRejects,
  assertThrows,
} from "../../tests/assert.ts";
import { dnsTestService } from "../../tests/helpers/dns_service.ts";
import { tempStore } from "../../tests/helpers/temp_store.ts";
import { type DomainError, UnprocessableError, ValidationError } from "../errors.ts";
import { normalizeName } from "./names.ts";
import { checkRecord } from "./record_check.ts";
import { regexpProblem } from "./rdata_naptr.ts";

const hex = (n: number) => "0f".repeat(n);

function refused(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (err) {
    return err as DomainError;
  }
  throw new Error("not refused");
}

Deno.test("checkRecord() refuses digests of the wrong length for their type, on field value", () => {
  const cases: [string, string, RegExp][] = [
    [
      "SSHFP",
      `1 1 ${hex(40)}`,
      /fingerprint is 40 bytes, but fingerprint type 1 \(SHA-1\) takes 20/,
    ],
    ["SSHFP", `4 2 ${hex(20)}`, /takes 32/],
    ["DS", `1 8 1 ${hex(32)}`, /digest is 32 bytes, but digest type 1 \(SHA-1\) takes 20/],
    ["DS", `1 8 2 ${hex(20)}`, /takes 32/],
    ["DS", `1 8 4 ${hex(32)}`, /takes 48/],
    ["TLSA", `3 1 1 ${hex(64)}`, /matching type 1 \(SHA-256\) takes 32/],
    ["TLSA", `3 1 2 ${hex(32)}`, /matching type 2 \(SHA-512\) takes 64/],
    ["SMIMEA", `3 1 1 ${hex(20)}`, /takes 32/],
    ["DS", `1 8 0 ${hex(20)}`, /digest type 0 is reserved/],
    ["SSHFP", `0 1 ${hex(20)}`, /algorithm 0 is reserved/],
    ["TLSA", "3 1 0 abc", /not hexadecimal/],
  ];
  for (const [type, value, said] of cases) {
    const err = refused(() => checkRecord(type, value, 300, null));
    assert(err instanceof ValidationError, `${type} ${value}`);
    assertEquals(err.field, "value");
    assertMatch(err.message, said);
  }
  assertEquals(checkRecord("SSHFP", `1 1 ${hex(20)}`, 300, null).wire.length, 22);
  assertEquals(checkRecord("DS", `1 8 200 ${hex(3)}`, 300, null).wire.length, 7);
  assertEquals(checkRecord("TLSA", `3 1 0 ${hex(500)}`, 300, null).wire.length, 503);
});

Deno.test("checkRecord() bounds TTLs by RFC 2181 and data by RDLENGTH, naming the field", () => {
  assertEquals(checkRecord("A", "192.0.2.1", 2_147_483_647, null).ttl, 2_147_483_647);
  for (const ttl of [2_147_483_648, 4_294_967_296, -1, 1.5]) {
    const err = refused(() => checkRecord("A", "192.0.2.1", ttl, null));
    assertEquals([err instanceof ValidationError, err.field], [true, "ttl"], String(ttl));
  }
  const zoneFile = refused(() =>
    checkRecord("A", "192.0.2.1", 2 ** 32, null, { value: "zone", ttl: "zone" })
  );
  assertEquals(zoneFile.field, "zone");
  const txt = refused(() => checkRecord("TXT", "t".repeat(65_280), 300, null));
  assertEquals(txt.field, "value");
  assertMatch(txt.message, /text takes 65536 bytes on the wire, more than the 65535/);
  const blob = refused(() => checkRecord("TLSA", `3 1 0 ${hex(65_533)}`, 300, null));
  assertMatch(blob.message, /65533 bytes, more than the 65532/);
});

Deno.test("NAPTR regexps are checked as BIND checks them, and exclude a replacement", () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  assertEquals(regexpProblem(enc("")), null);
  assertEquals(regexpProblem(enc("!^.*$!sip:info@example.com!")), null);
  assertEquals(regexpProblem(enc("/(a)(b)/\\2\\1/i")), null);
  assertEquals(regexpProblem(enc("/[)]/x/")), null);
  const bad: [string, RegExp][] = [
    ["1a1b1", /delimiter/],
    ["!a!b", /does not end/],
    ["!a!b!!", /more than three/],
    ["!a!b!c", /flag "c"/],
    ["!a!b!x", /flag "x"/],
    ["/a/\\1/", /group 1 but has 0/],
    ["/a/\\0/", /\\0/],
    ["/(a/b/", /unbalanced/],
    ["/[a/b/", /unbalanced/],
  ];
  for (const [re, said] of bad) assertMatch(regexpProblem(enc(re)) ?? "", said, re);
  assertThrows(
    () =>
      checkRecord(
        "NAPTR",
        '1 1 "U" "E2U+sip" "!^.*$!sip:a@example.com!" sip.example.com',
        60,
        null,
      ),
    ValidationError,
    "not both",
  );
  assertThrows(() => checkRecord("NAPTR", '1 1 "U+" "x" "" .', 60, null), ValidationError, "flags");
});

Deno.test("names: no slash in owners and zones, a top label starting with a letter, valid A-labels", () => {
  assertEquals(
    normalizeName("_acme-challenge.WWW.example.org."),
    "_acme-challenge.www.example.org",
  );
  assertEquals(normalizeName("*.example.org", "domain", { wildcard: true }), "*.example.org");
  assertEquals(normalizeName("xn--mnchen-3ya.de"), "xn--mnchen-3ya.de");
  assertEquals(
    normalizeName("1.0/25.2.0.192.in-addr.arpa", "value", { slash: true }),
    "1.0/25.2.0.192.in-addr.arpa",
  );
  for (const bad of ["a/b", "1e999", "123", "example.123", "example.-org", "xn--zz.de", "a.xn--"]) {
    const err = refused(() => normalizeName(bad));
    assertEquals([err instanceof ValidationError, err.field], [true, "name"], bad);
  }
  assertThrows(() => normalizeName("x.1e999", "value", { slash: true }), ValidationError);
});

Deno.test("the RRset size check refuses what would not fit one TCP message with 422 on value, in create, update and batch", async () => {
  await using t = await tempStore();
  const { service } = dnsTestService(t.store);
  await service.createZone("t", { name: "example.com", admin_email: "h@example.com" });
  const big = (c: string) => ({ domain: "k.example.com", type: "TXT", value: c.repeat(40_000) });
  const first = await service.createRecord("t", "example.com", big("a"));
  const err = await assertRejects(() => service.createRecord("t", "example.com", big("b")));
  assert(err instanceof UnprocessableError);
  assertEquals(err.field, "value");
  const small = await service.createRecord("t", "example.com", { ...big("c"), value: "small" });
  await assertRejects(
    () => service.updateRecord("t", "example.com", small.id, { value: "d".repeat(40_000) }),
    UnprocessableError,
  );
  // Replacing the large value by another one of the same size still fits.
  await service.updateRecord("t", "example.com", first.id, { value: "e".repeat(40_000) });
  // Within a batch, a deletion makes room for what follows it.
  await service.batch("t", "example.com", [
    { operation: "delete", id: first.id },
    { operation: "create", ...big("f") },
  ]);
});
