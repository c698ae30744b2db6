/**
 * The record types beyond RFC 1035's, by example: the canonical form of each
 * (what BIND prints back from the wire, numbers for CERT), the RFC rules each
 * is refused by, RFC 3597 data of a known type read by its codec, and names
 * with escapes stored as `\DDD` and written on the wire as the bytes they mean.
 */
import { assertEquals, assertThrows } from "../../tests/assert.ts";
import { ValidationError } from "../errors.ts";
import { nameWire, normalizeName, ownerInZone } from "./names.ts";
import { parseRdata } from "./rdata.ts";
import { parseZoneFile, serializeZoneFile } from "./zone_file.ts";

const canon = (type: string, value: string) => parseRdata(type, value, null).value;
const wireHex = (type: string, value: string) =>
  [...parseRdata(type, value, null).wire].map((x) => x.toString(16).padStart(2, "0")).join("");
const refused = (type: string, value: string, why: string) =>
  assertThrows(() => canon(type, value), ValidationError, why);

Deno.test("HTTPS and SVCB: ascending keys, sorted mandatory list, quoted alpn and generic values", () => {
  assertEquals(
    canon("HTTPS", "1 . port=443 alpn=h3,h2 mandatory=port,alpn ech=AEX+DQ== key65000=abc"),
    '1 . mandatory=alpn,port alpn="h3,h2" port=443 ech=AEX+DQ== key65000="abc"',
  );
  assertEquals(canon("SVCB", "0 Svc.Example.NET"), "0 svc.example.net.");
  assertEquals(canon("SVCB", '1 . key1="a\\\\,b" key9'), '1 . alpn="a\\\\,b" key9');
  assertEquals(
    wireHex("SVCB", "1 . port=443 alpn=h2"),
    "0001" + "00" + "00010003026832" + "0003000201bb",
  );
  refused("HTTPS", "0 . alpn=h2", "AliasMode");
  refused("HTTPS", "1 . alpn=h2 alpn=h3", "given twice");
  refused("HTTPS", "1 . mandatory=port alpn=h2", "mandatory lists port");
  refused("HTTPS", "1 . mandatory=mandatory", "cannot list itself");
  refused("HTTPS", "1 . no-default-alpn", "needs alpn");
  refused("HTTPS", "1 . key65535", "not a SvcParamKey");
  refused("HTTPS", "1 . port", "needs a value");
});

Deno.test("LOC, URI, HINFO, RP, AFSDB, KX, CERT, OPENPGPKEY: canonical forms and refusals", () => {
  assertEquals(
    canon("LOC", "42 21 54 N 71 06 18 W -24m 30m"),
    "42 21 54.000 N 71 6 18.000 W -24.00m 30m 10000m 10m",
  );
  assertEquals(
    wireHex("LOC", "0 N 0 E 0m 0m 0.01m 1m"),
    "00001012" + "80000000" + "80000000" + "00989680",
  );
  refused("LOC", "42 21 54 N 71 06 18 W -24m 15m", "power of ten");
  refused("LOC", "91 N 0 E 0m", "latitude");
  assertEquals(canon("URI", '10 1 "https://example.com/"'), '10 1 "https://example.com/"');
  refused("URI", '10 1 ""', "not a URI");
  assertEquals(canon("HINFO", "PC Linux"), '"PC" "Linux"');
  assertEquals(canon("RP", "Mbox.Example.Com ."), "mbox.example.com. .");
  assertEquals(canon("AFSDB", "1 afs.example.com"), "1 afs.example.com.");
  assertEquals(canon("KX", "10 kx.example.com"), "10 kx.example.com.");
  assertEquals(canon("CERT", "pgp 1 rsasha256 AAEC AwQ="), "3 1 8 AAECAwQ=");
  refused("CERT", "255 0 0 AAECAwQ=", "reserved");
  assertEquals(canon("OPENPGPKEY", "AAEC AwQF"), "AAECAwQF");
  refused("OPENPGPKEY", "AAECAwQ", "not base64");
});

Deno.test("CDS and CDNSKEY take RFC 8078's delete forms and DS/DNSKEY rules otherwise", () => {
  assertEquals(canon("CDS", "0 0 0 00"), "0 0 0 00");
  assertEquals(canon("CDNSKEY", "0 3 0 AA=="), "0 3 0 AA==");
  refused("CDS", "1 0 0 00", "delete form");
  refused("DS", "0 0 0 00", "reserved");
  refused("CDNSKEY", "0 3 0 AAA=", "delete form");
  refused("CDNSKEY", "257 2 8 AAEC", "protocol");
  refused("CDNSKEY", "1 3 8 AAEC", "Zone Key");
  refused("CDNSKEY", "257 3 15 AAEC", "takes 32");
});

Deno.test("RFC 3597 data of a known type is read by the type's codec, checked and stored in its presentation", () => {
  assertEquals(canon("HTTPS", "\\# 3 000000"), "0 .");
  assertEquals(
    canon("SVCB", "\\# 16 0001 00 0001 0003 026833 0003 0002 01BB"),
    '1 . alpn="h3" port=443',
  );
  assertEquals(canon("A", "\\# 4 C0000201"), "192.0.2.1");
  assertEquals(canon("TXT", "\\# 4 03616263"), '"abc"');
  assertEquals(
    canon(
      "CNAME",
      "\\# 17 0378 5C 79 07 6578616D706C65 03636F6D 00".replace(/ /g, "")
        .replace(/^\\#17/, "\\# 17 "),
    ),
    "x\\092y.example.com.",
  );
  refused("HTTPS", "\\# 13 0001 00 0003 0002 01BB 0001 0000", "strictly increasing");
  refused("HTTPS", "\\# 9 0000 00 0003 0002 01BB", "AliasMode");
  refused("A", "\\# 3 C00002", "ends inside");
  refused("LOC", "\\# 16 01121613899ECB7D80A3B1B80098967F", "version 0");
});

Deno.test("names with escapes: stored with \\DDD, wire bytes as meant, zone files round-trip", () => {
  assertEquals(ownerInZone("x\\.Y.example.com.", "example.com"), "x\\046y.example.com");
  assertEquals(ownerInZone("\\200\\001.example.com", "example.com"), "\\200\\001.example.com");
  assertEquals(ownerInZone("\\097bc.example.com", "example.com"), "abc.example.com");
  assertEquals([...nameWire("x\\046y.ex")], [3, 0x78, 0x2e, 0x79, 2, 0x65, 0x78, 0]);
  assertThrows(() => normalizeName("a\\.b.example.com"), ValidationError);
  assertThrows(() => ownerInZone("a\\256.example.com", "example.com"), ValidationError, "range");
  // "*" below the first label is a literal label (RFC 4592 §2.1.1), escaped or not.
  assertEquals(ownerInZone("a.\\*.example.com", "example.com"), "a.*.example.com");
  const text = [
    "$ORIGIN example.com.",
    "@ 300 IN SOA ns1 h 1 3600 600 86400 300",
    "x\\.y 300 IN A 192.0.2.1",
    "\\200 300 IN TYPE65 \\# 3 000000",
    "a\\ b 300 IN CNAME c\\.d",
  ].join("\n");
  const parsed = parseZoneFile(text, "example.com");
  const records = parsed.records.map(({ name, type, ttl, value }) => ({ name, type, ttl, value }));
  assertEquals(records, [
    { name: "x\\046y.example.com", type: "A", ttl: 300, value: "192.0.2.1" },
    { name: "\\200.example.com", type: "HTTPS", ttl: 300, value: "0 ." },
    { name: "a\\032b.example.com", type: "CNAME", ttl: 300, value: "c\\046d.example.com." },
  ]);
  const out = serializeZoneFile({
    name: "example.com",
    default_ttl: 300,
    soa: { ttl: 300, value: "ns1.example.com. h.example.com. 1 3600 600 86400 300" },
    records,
  });
  const again = parseZoneFile(out, "example.com").records;
  const byName = (a: { name: string }, b: { name: string }) => a.name < b.name ? -1 : 1;
  assertEquals(
    again.map(({ name, type, ttl, value }) => ({ name, type, ttl, value })).sort(byName),
    [...records].sort(byName),
  );
});
