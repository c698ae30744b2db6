import { assertEquals, assertThrows } from "../../tests/assert.ts";
import { ConfigError } from "../errors.ts";
import {
  addressKey,
  canonicalAddress,
  clientAddress,
  trustedProxyMatcher,
} from "./client_address.ts";

const proxies = trustedProxyMatcher(["127.0.0.1", "10.0.0.0/8", "2001:db8:ffff::/48"]);

Deno.test("clientAddress() reads X-Forwarded-For only from a trusted peer, right to left", () => {
  const cases: [string, string | null, string][] = [
    ["192.0.2.1", "198.51.100.1", "192.0.2.1"],
    ["127.0.0.1", null, "127.0.0.1"],
    ["127.0.0.1", "198.51.100.1", "198.51.100.1"],
    ["127.0.0.1", "203.0.113.9, 198.51.100.1", "198.51.100.1"],
    ["127.0.0.1", "198.51.100.1, 10.0.0.2,10.9.9.9", "198.51.100.1"],
    ["127.0.0.1", "10.0.0.2, 10.0.0.3", "10.0.0.2"],
    ["127.0.0.1", "198.51.100.1:5123", "198.51.100.1"],
    ["127.0.0.1", "[2001:DB8::0:1]:443", "2001:db8::1"],
    ["127.0.0.1", "::ffff:198.51.100.1", "198.51.100.1"],
    ["127.0.0.1", "198.51.100.1, unknown", "127.0.0.1"],
    ["127.0.0.1", "198.51.100.1, garbage, 10.0.0.2", "10.0.0.2"],
    ["127.0.0.1", "", "127.0.0.1"],
    ["::ffff:127.0.0.1", "198.51.100.1", "198.51.100.1"],
    ["2001:db8:ffff:1::5", "2001:db8::7", "2001:db8::7"],
  ];
  for (const [peer, header, expected] of cases) {
    assertEquals(clientAddress(peer, header, proxies), expected, `${peer} + ${header}`);
  }
  const none = trustedProxyMatcher([]);
  assertEquals(clientAddress("127.0.0.1", "198.51.100.1", none), "127.0.0.1");
});

Deno.test("canonicalAddress() and addressKey() give one text per address and per IPv6 /64", () => {
  assertEquals(canonicalAddress("2001:0db8:0000:0000:0001:0000:0000:0001"), "2001:db8::1:0:0:1");
  assertEquals(canonicalAddress("0:0:0:0:0:0:0:1"), "::1");
  assertEquals(canonicalAddress("1:0:0:2:0:0:0:3"), "1:0:0:2::3");
  assertEquals(canonicalAddress("fe80::1%eth0"), null);
  assertEquals(canonicalAddress("example.org"), null);
  assertEquals(addressKey("2001:db8:1:2:3:4:5:6"), "2001:db8:1:2::/64");
  assertEquals(addressKey("::ffff:192.0.2.1"), "192.0.2.1");
  assertEquals(addressKey("unknown"), "unknown");
});

Deno.test("trustedProxyMatcher() refuses an entry that is not an address or prefix", () => {
  assertThrows(
    () => trustedProxyMatcher(["proxy.example"]),
    ConfigError,
    "PALISADE_TRUSTED_PROXIES",
  );
});
