import { assertEquals, assertThrows } from "../../tests/assert.ts";
import {
  firstFree,
  formatIpv4,
  isHostAddress,
  overlaps,
  parseCidr,
  parseCidrList,
  parseIpv4,
} from "./ipv4.ts";

Deno.test("parseCidr() rejects malformed blocks and keeps the host part", () => {
  assertEquals(parseCidr("10.8.0.1/24"), { address: parseIpv4("10.8.0.1"), prefix: 24 });
  for (
    const bad of [
      "10.8.0.1",
      "10.8.0.256/24",
      "10.8.0.1/33",
      "10.08.0.1/24",
      "a.b.c.d/8",
      "10.8.0.1/24 x",
    ]
  ) {
    assertEquals(parseCidr(bad), null, bad);
  }
});

Deno.test("firstFree() skips network, broadcast and used addresses", () => {
  const c = parseCidr("10.8.0.1/30")!;
  const used = new Set([parseIpv4("10.8.0.1")!]);
  assertEquals(formatIpv4(firstFree(c, used)!), "10.8.0.2");
  used.add(parseIpv4("10.8.0.2")!);
  assertEquals(firstFree(c, used), null);
  assertEquals(isHostAddress(c, parseIpv4("10.8.0.3")!), false);
});

Deno.test("overlaps() detects nested and disjoint blocks", () => {
  assertEquals(overlaps(parseCidr("10.8.0.1/24")!, parseCidr("10.8.0.129/25")!), true);
  assertEquals(overlaps(parseCidr("10.8.0.1/24")!, parseCidr("10.8.1.1/24")!), false);
});

Deno.test("parseCidrList() normalizes and rejects a bad entry", () => {
  assertEquals(parseCidrList(" 10.0.0.0/8,192.168.1.5 , ::/0"), [
    "10.0.0.0/8",
    "192.168.1.5/32",
    "::/0",
  ]);
  assertThrows(() => parseCidrList("10.0.0.0/8, nope"));
});
