import { assertEquals } from "../../../tests/assert.ts";
import { parseCidr, parseIpv4 } from "../ipv4.ts";
import { availableAddresses } from "./available.ts";

const ip = (s: string) => parseIpv4(s)!;
const ips = (...s: string[]) => s.map(ip);

Deno.test("availableAddresses() skips network, broadcast and allocated addresses, ascending", () => {
  const c = parseCidr("10.8.0.0/29")!;
  const used = new Set(ips("10.8.0.1", "10.8.0.3", "10.8.0.6"));
  assertEquals(availableAddresses(c, used, null, 100), {
    addresses: ips("10.8.0.2", "10.8.0.4", "10.8.0.5"),
    more: false,
  });
  assertEquals(availableAddresses(c, new Set(), null, 100).addresses, [
    ...ips("10.8.0.1", "10.8.0.2", "10.8.0.3", "10.8.0.4", "10.8.0.5", "10.8.0.6"),
  ]);
});

Deno.test("availableAddresses() pages with limit and after; more only when a free address follows", () => {
  const c = parseCidr("10.8.0.0/29")!;
  const used = new Set(ips("10.8.0.1", "10.8.0.3", "10.8.0.6"));
  assertEquals(availableAddresses(c, used, null, 2), {
    addresses: ips("10.8.0.2", "10.8.0.4"),
    more: true,
  });
  assertEquals(availableAddresses(c, used, ip("10.8.0.4"), 2), {
    addresses: ips("10.8.0.5"),
    more: false,
  });
  // The last free address ends the page: what follows is allocated or the broadcast address.
  assertEquals(availableAddresses(c, used, ip("10.8.0.2"), 2), {
    addresses: ips("10.8.0.4", "10.8.0.5"),
    more: false,
  });
  // after the network address starts at the first host; after the broadcast address nothing is left.
  assertEquals(availableAddresses(c, used, ip("10.8.0.0"), 1), {
    addresses: ips("10.8.0.2"),
    more: true,
  });
  assertEquals(availableAddresses(c, used, ip("10.8.0.7"), 5), { addresses: [], more: false });
});

Deno.test("availableAddresses() on a full block answers nothing", () => {
  const c = parseCidr("192.168.1.4/30")!;
  assertEquals(
    availableAddresses(c, new Set(ips("192.168.1.5", "192.168.1.6")), null, 10),
    { addresses: [], more: false },
  );
});

Deno.test("availableAddresses() walks only as far as the page in a /8: the top of the block is reached through after", () => {
  const c = parseCidr("10.0.0.0/8")!;
  const used = new Set<number>();
  for (let i = 1; i <= 10_000; i++) used.add(ip("10.0.0.0") + i);
  const page = availableAddresses(c, used, null, 3);
  assertEquals(page, { addresses: ips("10.0.39.17", "10.0.39.18", "10.0.39.19"), more: true });
  assertEquals(availableAddresses(c, used, ip("10.255.255.252"), 3), {
    addresses: ips("10.255.255.253", "10.255.255.254"),
    more: false,
  });
});
