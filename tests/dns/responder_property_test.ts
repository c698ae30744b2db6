/**
 * Properties of the responder's entry points (DnsResponder.udp/tcp) over a
 * real store and answer index: for any input the answer is nothing, or
 * messages that dns-packet decodes in full as responses with the query's ID;
 * for a well-formed query they echo its question and fit the transport.
 */
import { now } from "../helpers/sync_answer.ts";
import { Buffer } from "node:buffer";
import fc from "fast-check";
import { assert, assertEquals } from "../assert.ts";
import { decodedBytes, dnsPacket } from "../../lib/dns/packet.ts";
import { DnsResponder } from "../../lib/dns/responder.ts";
import { ResponseRateLimiter } from "../../lib/dns/rrl.ts";
import { DnsIndex } from "../../lib/dns/zone_index.ts";
import { sqliteDnsRepos } from "../../lib/dns/dns_repos.ts";
import { systemClock } from "../../lib/clock.ts";
import { dnsTestService } from "../helpers/dns_service.ts";
import { answerable } from "./fuzz_mutations.ts";
import { tempStore } from "../helpers/temp_store.ts";
import { check, propertySeed } from "./property.ts";
import {
  anyMessage,
  encodeQuery,
  mutate,
  mutations,
  type QuerySpec,
  querySpec,
} from "./query_arbitraries.ts";

const runs = propertySeed("responder_property_test");
const ZONE = "prop.test";
/** A second zone served alongside: CNAME and DNAME chains continue in it. */
const OTHER = "other.test";
const encoder = new TextEncoder();

/** Names of the zone (and one outside it) that reach every kind of answer. */
const NAMES = [
  ZONE,
  `www.${ZONE}`,
  `alias.${ZONE}`,
  `x.wild.${ZONE}`,
  `sub.${ZONE}`,
  `host.sub.${ZONE}`,
  `big.${ZONE}`,
  `mail.${ZONE}`,
  `_sip._tcp.${ZONE}`,
  `nope.${ZONE}`,
  `tobig.${ZONE}`,
  `www.dn.${ZONE}`,
  `toother.${ZONE}`,
  `www.${OTHER}`,
  "example.org",
];

/** A name of the zone in any case, as labels. */
const zoneLabels = fc.mixedCase(fc.constantFrom(...NAMES))
  .map((n) => n.split(".").map((l) => encoder.encode(l)));

/** What makes a query reach the zone's data: one of its names and types, class IN or ANY, a plain query. */
const aimed = fc.record({
  labels: zoneLabels,
  qtype: fc.constantFrom(1, 2, 5, 6, 15, 16, 28, 33, 39, 255, 251, 252),
  qclass: fc.constantFrom(1, 1, 1, 255),
  flags: fc.constantFrom(0, 0x0100),
});

/** Queries aimed at the zone two times in three, the rest anything. */
const zoneQuery: fc.Arbitrary<QuerySpec> = fc.tuple(querySpec, fc.option(aimed, { freq: 3 }))
  .map(([spec, over]) => (over ? { ...spec, ...over } : spec));

const anyInput = fc.oneof(
  anyMessage,
  zoneQuery.map(encodeQuery),
  fc.tuple(zoneQuery, mutations).map(([s, m]) => mutate(encodeQuery(s), m)),
);

async function responder(rrl: ResponseRateLimiter | null = null) {
  const t = await tempStore();
  const index = new DnsIndex(sqliteDnsRepos(t.store));
  const { service } = dnsTestService(t.store, { clock: systemClock, index });
  await index.load();
  await service.createZone("t", { name: ZONE, admin_email: `h@${ZONE}` });
  const add = (domain: string, type: string, value: string) =>
    service.createRecord("t", ZONE, { domain: `${domain}.${ZONE}`, type, value });
  await add("www", "A", "192.0.2.1");
  await add("www", "AAAA", "2001:db8::1");
  await add("alias", "CNAME", `www.${ZONE}`);
  await add("*.wild", "TXT", "w");
  await add("sub", "NS", `ns.sub.${ZONE}`);
  await add("ns.sub", "A", "192.0.2.2");
  await add("mail", "MX", `10 www.${ZONE}`);
  await add("_sip._tcp", "SRV", `0 5 5060 www.${ZONE}`);
  // More than 1232 bytes: truncated over UDP, whole over TCP.
  for (let i = 0; i < 8; i++) await add("big", "TXT", `${i}${"z".repeat(250)}`);
  await add("tobig", "CNAME", `big.${ZONE}`);
  await add("dn", "DNAME", OTHER);
  await add("toother", "CNAME", `www.${OTHER}`);
  await service.createZone("t", { name: OTHER, admin_email: `h@${OTHER}` });
  await service.createRecord("t", OTHER, { domain: `www.${OTHER}`, type: "A", value: "192.0.2.9" });
  const options = { axfrAllowed: (ip: string) => ip === "127.0.0.1" };
  const r = new DnsResponder(index, { ...options, rrl });
  /** A responder with an empty answer cache. */
  const fresh = () => new DnsResponder(index, options);
  return { r, fresh, [Symbol.asyncDispose]: () => t[Symbol.asyncDispose]() };
}

/** Counts the kinds of answer a property met, so a test can insist each came up. */
class Tally {
  readonly seen = new Map<string, number>();
  add(kind: string): void {
    this.seen.set(kind, (this.seen.get(kind) ?? 0) + 1);
  }
  /** Every kind in `kinds` came up: otherwise the generators miss a path of the responder. */
  covers(kinds: string[]): void {
    const missing = kinds.filter((k) => !this.seen.has(k));
    assertEquals(missing, [], `kinds met: ${JSON.stringify(Object.fromEntries(this.seen))}`);
  }
}

/** `reply` decoded in full as a response to `msg`; throws (failing the property) otherwise. */
function decodeReply(reply: Uint8Array, msg: Uint8Array, tally: Tally) {
  const p = dnsPacket.decode(Buffer.from(reply));
  assertEquals(decodedBytes(), reply.length, "no bytes after the message");
  assertEquals(p.type, "response");
  assertEquals(p.id, (msg[0] << 8) | msg[1], "the query's ID");
  tally.add(p.flag_tc ? "TC" : p.answers.length ? `${p.rcode} with answers` : p.rcode);
  return p;
}

Deno.test("DnsResponder.udp/tcp: any input gets nothing, or responses that decode, with the query's ID", async () => {
  await using s = await responder();
  const tally = new Tally();
  check(
    fc.property(anyInput, fc.constantFrom("127.0.0.1", "192.0.2.9"), (msg, ip) => {
      const udp = now(s.r.udp(msg, ip));
      const tcp = now(s.r.tcp(msg, ip));
      if (!answerable(msg)) {
        assertEquals(
          [udp, tcp],
          [null, []],
          "no answer without an ID and a question, or to a response",
        );
        return;
      }
      assert(udp !== null, "a query with a readable question is answered over UDP");
      assert(udp.length <= 1232, `UDP answer of ${udp.length} bytes`);
      decodeReply(udp, msg, tally);
      assert(tcp.length >= 1, "and over TCP");
      for (const m of tcp) {
        assert(m.length <= 65535);
        decodeReply(m, msg, tally);
      }
    }),
    runs(1500),
  );
  tally.covers(["NOERROR with answers", "NXDOMAIN", "REFUSED", "FORMERR", "NOTIMP"]);
});

Deno.test("DnsResponder.udp/tcp: a well-formed query's answer echoes its question, fits the transport, and is what an empty cache gives", async () => {
  await using s = await responder();
  const tally = new Tally();
  check(
    fc.property(zoneQuery, (spec) => {
      const msg = encodeQuery(spec);
      const questionEnd = 12 + spec.labels.reduce((n, l) => n + l.length + 1, 1) + 4;
      const limit = spec.edns ? Math.min(Math.max(512, spec.edns.udpSize), 1232) : 512;
      const udp = now(s.r.udp(msg, "127.0.0.1"))!;
      const [first] = now(s.r.tcp(msg, "127.0.0.1"));
      // The cache patches ID, RD and the name's case into a copy: the bytes must be a fresh answer's.
      assertEquals(udp, now(s.fresh().udp(msg, "127.0.0.1")));
      assertEquals(first, now(s.fresh().tcp(msg, "127.0.0.1"))[0]);
      for (const [reply, max] of [[udp, limit], [first, 65535]] as const) {
        assert(reply.length <= max, `${reply.length} bytes, more than ${max}`);
        const p = decodeReply(reply, msg, tally);
        assertEquals(p.opcode, dnsPacket.decode(Buffer.from(msg)).opcode);
        assertEquals(p.flag_rd, (spec.flags & 0x0100) !== 0, "RD copied");
        assertEquals(p.questions.length, 1);
        assertEquals(reply.subarray(12, questionEnd), msg.subarray(12, questionEnd));
      }
    }),
    runs(1500),
  );
  tally.covers(["NOERROR with answers", "NXDOMAIN", "REFUSED", "TC"]);
});

Deno.test("DnsResponder.udp under rate limiting: any input is dropped, or answered or slipped with its ID", async () => {
  // One answer per second, every second one over it slips out truncated.
  const rrl = new ResponseRateLimiter({ rate: 1, slip: 2, ipv4Prefix: 24, ipv6Prefix: 56 });
  await using s = await responder(rrl);
  const tally = new Tally();
  check(
    fc.property(
      anyInput,
      fc.constantFrom("192.0.2.9", "198.51.100.7", "2001:db8::5"),
      (msg, ip) => {
        const udp = now(s.r.udp(msg, ip));
        if (!answerable(msg)) return assertEquals(udp, null);
        if (udp === null) return tally.add("dropped");
        decodeReply(udp, msg, tally);
      },
    ),
    runs(1500),
  );
  tally.covers(["dropped", "TC"]);
});
