import { assertEquals, assertThrows } from "../../tests/assert.ts";
import { UnprocessableError, ValidationError } from "../errors.ts";
import { normalizeType, parseRdata } from "./rdata.ts";

const canon = (type: string, value: string, origin: string | null = null) =>
  parseRdata(type, value, origin).value;

Deno.test("parseRdata() canonicalizes addresses and host names", () => {
  assertEquals(canon("A", "192.0.2.010"), "192.0.2.10");
  assertEquals(canon("AAAA", "2001:DB8:0:0:0:0:0:1"), "2001:db8::1");
  assertEquals(canon("CNAME", "Target.Example.COM"), "target.example.com.");
  assertEquals(canon("MX", "10 mail.example.com."), "10 mail.example.com.");
  assertEquals(canon("MX", "10 mail", "example.com"), "10 mail.example.com.");
  assertEquals(canon("SRV", "0 5 5060 sip.example.com"), "0 5 5060 sip.example.com.");
  assertEquals(canon("PTR", "host.example.com"), "host.example.com.");
  assertEquals(canon("CAA", '0 ISSUE "letsencrypt.org"'), '0 issue "letsencrypt.org"');
  assertEquals(
    canon("CAA", "128 iodef mailto:sec@example.com"),
    '128 iodef "mailto:sec@example.com"',
  );
  assertEquals(canon("MX", "0 ."), "0 .");
});

Deno.test("parseRdata() rejects malformed values per type", () => {
  assertThrows(() => canon("A", "256.1.1.1"), ValidationError, "IPv4");
  assertThrows(() => canon("A", "1.2.3"), ValidationError);
  assertThrows(() => canon("AAAA", "1.2.3.4"), ValidationError, "IPv6");
  assertThrows(() => canon("MX", "mail.example.com"), ValidationError, "preference");
  assertThrows(() => canon("MX", "10"), ValidationError, "missing exchange");
  assertThrows(() => canon("MX", "70000 mail.example.com"), ValidationError);
  assertThrows(() => canon("SRV", "1 2 mail.example.com"), ValidationError);
  assertThrows(() => canon("CNAME", "a..b"), ValidationError);
  assertThrows(() => canon("CNAME", "a.example.com extra"), ValidationError, "unexpected");
  assertThrows(() => canon("CAA", '0 is-sue "x"'), ValidationError, "tag");
  assertThrows(() => canon("SOA", "a b 1 2 3 4 5"), UnprocessableError);
});

Deno.test("parseRdata() splits TXT longer than 255 bytes into chunks", () => {
  const long = "v=DKIM1; k=rsa; p=" + "A".repeat(400);
  const r = parseRdata("TXT", long, null);
  assertEquals(r.value, `"${long.slice(0, 255)}" "${long.slice(255)}"`);
  // wire: two character-strings of 255 and the rest
  assertEquals(r.wire[0], 255);
  assertEquals(r.wire[256], long.length - 255);
  assertEquals(canon("TXT", '"a b" "c\\"d"'), '"a b" "c\\"d"');
  assertEquals(canon("TXT", 'say "hi"'), '"say \\"hi\\""');
  assertEquals(canon("TXT", ""), '""');
  assertEquals(canon("TXT", "caf\u00e9"), '"caf\\195\\169"');
});

Deno.test("normalizeType() reads RFC 3597 names of supported codes as their mnemonic", () => {
  assertEquals(normalizeType("mx"), "MX");
  assertEquals(normalizeType("type65"), "HTTPS");
  assertEquals(normalizeType("TYPE1"), "A");
  assertEquals(normalizeType("type65280"), "TYPE65280");
  assertThrows(() => normalizeType("ANY"), ValidationError);
  assertEquals(normalizeType("dname"), "DNAME");
  assertEquals(normalizeType("TYPE39"), "DNAME");
  assertEquals(canon("TYPE65280", "\\# 3 abcdef"), "\\# 3 ABCDEF");
  assertThrows(() => canon("TYPE65280", "\\# 4 abcdef"), ValidationError, "does not match");
});

Deno.test('parseRdata() reads "\\X" of a non-ASCII character X as that character\'s UTF-8 bytes', () => {
  // é is C3 A9, 中 is E4 B8 AD, 😀 is F0 9F 98 80, a no-break space is C2 A0: escaped or not, the same bytes.
  const bytes = '"\\195\\169\\228\\184\\173\\240\\159\\152\\128\\194\\160"';
  assertEquals(canon("TXT", '"é中😀\u00a0"'), bytes);
  assertEquals(canon("TXT", '"\\é\\中\\😀\\\u00a0"'), bytes);
  assertEquals(canon("NAPTR", '1 2 "" "\\é" "" .'), '1 2 "" "\\195\\169" "" .');
});
