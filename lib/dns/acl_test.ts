import { assertEquals, assertThrows } from "../../tests/assert.ts";
import { ConfigError } from "../errors.ts";
import { ipBytes, parseAcl } from "./acl.ts";
import { parseNotifyTargets } from "./notify.ts";

Deno.test("parseAcl() matches addresses and CIDR prefixes of both families, IPv4-mapped peers included", () => {
  const allow = parseAcl(["127.0.0.1", "10.0.0.0/8", "2001:db8::/32", "::1"]);
  for (
    const ip of [
      "127.0.0.1",
      "10.1.2.3",
      "2001:db8:ffff::1",
      "::1",
      "::ffff:10.9.9.9",
      "::ffff:127.0.0.1",
    ]
  ) {
    assertEquals(allow(ip), true, ip);
  }
  for (const ip of ["127.0.0.2", "11.0.0.1", "2001:db9::1", "::2", "not-an-ip", "fe80::1%eth0"]) {
    assertEquals(allow(ip), false, ip);
  }
  assertEquals(parseAcl([])("127.0.0.1"), false);
  assertEquals(parseAcl(["0.0.0.0/0"])("203.0.113.9"), true);
  assertThrows(() => parseAcl(["10.0.0.0/33"]), ConfigError, "PALISADE_DNS_AXFR_ALLOW");
  assertThrows(() => parseAcl(["example.com"]), ConfigError);
  assertEquals([...ipBytes("2001:db8::1:2")!], [
    32,
    1,
    13,
    184,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    1,
    0,
    2,
  ]);
  assertEquals(ipBytes("1:2:3:4:5:6:7:8:9"), null);
});

Deno.test("parseNotifyTargets() reads host:port entries with port 53 by default", () => {
  assertEquals(parseNotifyTargets(["127.0.0.1:5301", "[::1]:5302", "192.0.2.1", " "]), [
    { hostname: "127.0.0.1", port: 5301 },
    { hostname: "::1", port: 5302 },
    { hostname: "192.0.2.1", port: 53 },
  ]);
  assertThrows(() => parseNotifyTargets(["ns.example.net:53"]), ConfigError, "PALISADE_DNS_NOTIFY");
  assertThrows(() => parseNotifyTargets(["127.0.0.1:70000"]), ConfigError);
});

Deno.test("parseNotifyTargets() reads an optional TSIG key name after @", () => {
  assertEquals(
    parseNotifyTargets(["127.0.0.1:5301@Xfr-Key.", "[::1]:5302@k.example", "192.0.2.1"]),
    [
      { hostname: "127.0.0.1", port: 5301, key: "xfr-key" },
      { hostname: "::1", port: 5302, key: "k.example" },
      { hostname: "192.0.2.1", port: 53 },
    ],
  );
  assertThrows(() => parseNotifyTargets(["127.0.0.1:53@"]), ConfigError, "TSIG key");
  assertThrows(() => parseNotifyTargets(["127.0.0.1:53@bad key"]), ConfigError, "TSIG key");
});
