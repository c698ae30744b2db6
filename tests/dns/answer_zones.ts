/**
 * Two zones for the answer tests (answer_size_test.ts, answer_chain_test.ts,
 * dname_test.ts), made through the service as a user would: answers that
 * only just fit 512 bytes, delegations with more glue than fits, MX targets
 * with both address types, CNAME chains within and across the zones, and
 * DNAMEs. The expected answers in those tests are what NSD 4.6 gives for the
 * same data (its default configuration).
 */
import { assertEquals } from "../assert.ts";
import { dig, type DigAnswer } from "./dig.ts";
import type { DnsStack } from "./stack.ts";

export const Z = "example.test";
export const OTHER = "other.test";

/** One TXT record of two strings, 450 bytes of text: a 499-byte answer without EDNS. */
export const LONG_TXT = `"${"a".repeat(250)}" "${"b".repeat(200)}"`;

/** A DNAME target of 200 characters: a query name of two long labels below it overflows 255 bytes. */
export const LONG_TARGET = ["a", "b", "c"].map((c) => c.repeat(63)).join(".") + ".dddddddd";

export async function populateAnswerZones(s: DnsStack): Promise<void> {
  const zone = (name: string, nameservers: string[], minimum: number, ttl: number) =>
    s.service.createZone("test", {
      name,
      admin_email: `hostmaster@${name}`,
      refresh: 3600,
      retry: 600,
      expire: 604800,
      minimum,
      default_ttl: ttl,
      nameservers,
    });
  await zone(Z, ["ns1.example.test", "ns2.example.test"], 120, 600);
  await zone(OTHER, ["ns1.other.test"], 60, 300);
  const add = (zone: string, domain: string, type: string, value: string, ttl?: number) =>
    s.service.createRecord("test", zone, { domain, type, value, ttl });
  const e = (domain: string, type: string, value: string, ttl?: number) =>
    add(Z, domain === "@" ? Z : `${domain}.${Z}`, type, value, ttl);
  await e("ns1", "A", "192.0.2.53");
  await e("ns2", "AAAA", "2001:db8::53");
  await e("www", "A", "192.0.2.1");
  await e("long", "TXT", LONG_TXT);
  // 34 addresses: 589 bytes with EDNS, under a 600-byte limit only without the zone's NS.
  for (let i = 1; i <= 34; i++) await e("big", "A", `10.0.0.${i}`);
  await e("tobig", "CNAME", `big.${Z}`);
  for (const [i, pref] of [[1, 10], [2, 20], [3, 30]]) {
    await e("mx3", "MX", `${pref} m${i}.${Z}`);
    await e(`m${i}`, "A", `192.0.2.1${i}`);
    await e(`m${i}`, "AAAA", `2001:db8::1${i}`);
  }
  // Eight mail servers with both address types: not all their addresses fit 512 bytes.
  for (let i = 1; i <= 8; i++) {
    await e("mx8", "MX", `${i} n${i}.${Z}`);
    await e(`n${i}`, "A", `192.0.5.${i}`);
    await e(`n${i}`, "AAAA", `2001:db8:5::${i}`);
  }
  // Eight name servers with both address types: the glue does not all fit 512 bytes.
  for (let i = 1; i <= 8; i++) {
    await e("sub2", "NS", `ns${i}.sub2.${Z}`);
    await e(`ns${i}.sub2`, "A", `192.0.3.${i}`);
    await e(`ns${i}.sub2`, "AAAA", `2001:db8:3::${i}`);
  }
  await e("tosub2", "CNAME", `host.sub2.${Z}`);
  // Delegated to names under another cut only: sibling glue, not required (RFC 9471 §2.2).
  for (let i = 1; i <= 8; i++) await e("sib", "NS", `ns${i}.sub2.${Z}`);
  // Twelve hops before the address: longer than the eight Palisade used to follow.
  for (let i = 0; i < 12; i++) await e(`ch${i}`, "CNAME", `ch${i + 1}.${Z}`);
  await e("ch12", "A", "192.0.2.12");
  await e("toother", "CNAME", `www.${OTHER}`);
  await e("toother2", "CNAME", `c1.${OTHER}`);
  await e("c3", "A", "192.0.2.33");
  await e("loop1", "CNAME", `loop2.${OTHER}`);
  const o = (domain: string, type: string, value: string) =>
    add(OTHER, domain === "@" ? OTHER : `${domain}.${OTHER}`, type, value);
  await o("ns1", "A", "192.0.2.70");
  await o("www", "A", "192.0.2.71");
  await o("c1", "CNAME", `c2.${OTHER}`);
  await o("c2", "CNAME", `c3.${Z}`);
  await o("loop2", "CNAME", `loop1.${Z}`);
}

/** RFC 6672: a DNAME into the other zone, one inside this zone, one whose substitution can overflow. */
export async function populateDnames(s: DnsStack): Promise<void> {
  const e = (domain: string, type: string, value: string, ttl?: number) =>
    s.service.createRecord("test", Z, { domain: `${domain}.${Z}`, type, value, ttl });
  await e("dn", "DNAME", OTHER, 300);
  await e("dnself", "DNAME", `x.${Z}`);
  await e("x", "A", "192.0.2.200");
  await e("y.x", "A", "192.0.2.201");
  await e("c.x", "CNAME", `www.${Z}`);
  await e("dnlong", "DNAME", LONG_TARGET);
}

/**
 * dig's answer to `name type` (with `extra` options), asked twice: the second
 * time in upper case, which the answer cache serves. Both must say the same.
 */
export async function digTwice(
  port: number,
  name: string,
  type: string,
  ...extra: string[]
): Promise<DigAnswer> {
  // -q and -t: a class option (-c) otherwise makes dig read the type as a second name.
  const first = await dig(port, ["+ignore", ...extra, "-q", name, "-t", type]);
  const again = await dig(port, ["+ignore", ...extra, "-q", name.toUpperCase(), "-t", type]);
  const same = (d: DigAnswer) =>
    JSON.stringify([d.status, d.flags, d.inOrder, d.opt, d.size]).toLowerCase();
  assertEquals(same(again), same(first), `${name} ${type} ${extra.join(" ")}: from the cache`);
  return first;
}
