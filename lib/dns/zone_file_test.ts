import { assertEquals, assertThrows } from "../../tests/assert.ts";
import { ValidationError } from "../errors.ts";
import { parseZoneFile, serializeZoneFile } from "./zone_file.ts";

const BIND = `
$ORIGIN example.com.
$TTL 1h
@   IN  SOA ns1 hostmaster.example.com. (
        2024010101 ; serial
        3600       ; refresh
        900        ; retry
        1209600    ; expire
        300 )      ; minimum
    IN  NS  ns1
    IN  NS  ns2.example.net.
    IN  MX  10 mail
www 300 IN A 192.0.2.1
        IN AAAA 2001:db8::1
txt IN 600 TXT "hello; world" "second"
$ORIGIN sub.example.com.
host A 192.0.2.9
`;

Deno.test("parseZoneFile() reads BIND syntax: origin, units, blank owners, parentheses, comments", () => {
  const z = parseZoneFile(BIND, "example.com");
  assertEquals(z.soa, {
    primary: "ns1.example.com",
    admin_email: "hostmaster@example.com",
    serial: 2024010101,
    refresh: 3600,
    retry: 900,
    expire: 1209600,
    minimum: 300,
    ttl: 3600,
  });
  assertEquals(
    z.records.map((r) => [r.name, r.ttl, r.type, r.value]),
    [
      ["example.com", 3600, "NS", "ns1.example.com."],
      ["example.com", 3600, "NS", "ns2.example.net."],
      ["example.com", 3600, "MX", "10 mail.example.com."],
      ["www.example.com", 300, "A", "192.0.2.1"],
      ["www.example.com", 3600, "AAAA", "2001:db8::1"],
      ["txt.example.com", 600, "TXT", '"hello; world" "second"'],
      ["host.sub.example.com", 3600, "A", "192.0.2.9"],
    ],
  );
});

Deno.test("parseZoneFile() rejects a second SOA record", () => {
  const text = "$TTL 60\n@ SOA ns1 h 1 3600 900 1209600 300\n@ SOA ns1 h 2 3600 900 1209600 300\n";
  assertThrows(
    () => parseZoneFile(text, "example.com"),
    ValidationError,
    "Line 3: a second SOA record",
  );
});

Deno.test("parseZoneFile() names the line of bad data and refuses out-of-zone names", () => {
  assertThrows(
    () => parseZoneFile("$TTL 60\nwww A 1.2.3\n", "example.com"),
    ValidationError,
    "Line 2",
  );
  assertThrows(
    () => parseZoneFile("$TTL 60\nwww.other. A 1.2.3.4\n", "example.com"),
    ValidationError,
    "outside",
  );
  assertThrows(
    () => parseZoneFile("$INCLUDE other.zone\n", "example.com"),
    ValidationError,
    "not supported",
  );
  assertThrows(() => parseZoneFile("www A 1.2.3.4\n", "example.com"), ValidationError, "no TTL");
  assertThrows(
    () => parseZoneFile("$TTL 60\nwww CH A 1.2.3.4\n", "example.com"),
    ValidationError,
    "class",
  );
});

Deno.test("serializeZoneFile() output parses back to the same records", () => {
  const z = parseZoneFile(BIND, "example.com");
  const text = serializeZoneFile({
    name: "example.com",
    default_ttl: 3600,
    soa: {
      ttl: 3600,
      value: "ns1.example.com. hostmaster.example.com. 2024010101 3600 900 1209600 300",
    },
    records: z.records,
  });
  const again = parseZoneFile(text, "example.com");
  const key = (r: { name: string; type: string; ttl: number; value: string }) =>
    `${r.name} ${r.ttl} ${r.type} ${r.value}`;
  assertEquals(again.records.map(key).sort(), z.records.map(key).sort());
  assertEquals(again.soa, z.soa);
});
