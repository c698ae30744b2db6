/**
 * Answers beyond one zone and one class, against dig, as NSD 4.6 gives them
 * for the same data (answer_zones.ts): CNAME chains followed through every
 * zone served here (RFC 1034 §4.3.2 step 3a), QCLASS ANY answered without
 * authority (RFC 1034 §3.7.1), Extended DNS Errors on refusals (RFC 8914), and
 * an IXFR without the client's SOA refused as malformed (RFC 1995 §3).
 */
import { now } from "../helpers/sync_answer.ts";
import { Buffer } from "node:buffer";
import { assertEquals } from "../assert.ts";
import { haveSystem } from "../helpers/system.ts";
import { dnsPacket } from "../../lib/dns/packet.ts";
import { digTwice, populateAnswerZones } from "./answer_zones.ts";
import { type DnsStack, startDnsStack } from "./stack.ts";

const NS_EXAMPLE = [
  "example.test. 600 IN NS ns1.example.test.",
  "example.test. 600 IN NS ns2.example.test.",
];
const GLUE_EXAMPLE = [
  "ns1.example.test. 600 IN A 192.0.2.53",
  "ns2.example.test. 600 IN AAAA 2001:db8::53",
];

Deno.test("a CNAME into another zone served here is followed there, and the answer completed from it", async () => {
  if (!haveSystem("dns cname chains", ["dig"])) return;
  await using s = await startDnsStack();
  await populateAnswerZones(s);
  const a = await digTwice(s.port, "toother.example.test", "A");
  assertEquals([a.status, a.flags], ["NOERROR", ["aa", "qr"]]);
  assertEquals(a.inOrder.answer, [
    "toother.example.test. 600 IN CNAME www.other.test.",
    "www.other.test. 300 IN A 192.0.2.71",
  ]);
  assertEquals(a.authority, ["other.test. 300 IN NS ns1.other.test."]);
  assertEquals(a.additional, ["ns1.other.test. 300 IN A 192.0.2.70"]);

  // NODATA at the end of the chain: the SOA of the zone it ended in.
  const serial = (await s.service.getZone("other.test")).serial;
  const mx = await digTwice(s.port, "toother.example.test", "MX");
  assertEquals([mx.status, mx.answer], ["NOERROR", [
    "toother.example.test. 600 IN CNAME www.other.test.",
  ]]);
  assertEquals(mx.authority, [
    `other.test. 60 IN SOA ns1.other.test. hostmaster.other.test. ${serial} 3600 600 604800 60`,
  ]);

  // Out and back again.
  const back = await digTwice(s.port, "toother2.example.test", "A");
  assertEquals(back.inOrder.answer, [
    "toother2.example.test. 600 IN CNAME c1.other.test.",
    "c1.other.test. 300 IN CNAME c2.other.test.",
    "c2.other.test. 300 IN CNAME c3.example.test.",
    "c3.example.test. 600 IN A 192.0.2.33",
  ]);
  assertEquals([back.flags, back.authority, back.additional], [
    ["aa", "qr"],
    NS_EXAMPLE,
    GLUE_EXAMPLE,
  ]);

  // A loop across the zones stops where it closes, without authority data.
  const loop = await digTwice(s.port, "loop1.example.test", "A");
  assertEquals([loop.status, loop.flags, loop.authority], ["NOERROR", ["aa", "qr"], []]);
  assertEquals(loop.inOrder.answer, [
    "loop1.example.test. 600 IN CNAME loop2.other.test.",
    "loop2.other.test. 300 IN CNAME loop1.example.test.",
  ]);
});

Deno.test("a CNAME chain is followed to its end as NSD follows it, past eight hops", async () => {
  if (!haveSystem("dns cname chains", ["dig"])) return;
  await using s = await startDnsStack();
  await populateAnswerZones(s);
  const r = await digTwice(s.port, "ch0.example.test", "A");
  assertEquals([r.status, r.flags, r.size], ["NOERROR", ["aa", "qr"], 360]);
  assertEquals(r.inOrder.answer, [
    ...Array.from(
      { length: 12 },
      (_, i) => `ch${i}.example.test. 600 IN CNAME ch${i + 1}.example.test.`,
    ),
    "ch12.example.test. 600 IN A 192.0.2.12",
  ]);
  assertEquals([r.authority, r.additional], [NS_EXAMPLE, GLUE_EXAMPLE]);
});

Deno.test("QCLASS ANY: not authoritative, no SOA or NS of the zone; referrals and additional data stay", async () => {
  if (!haveSystem("dns qclass any", ["dig"])) return;
  await using s = await startDnsStack();
  await populateAnswerZones(s);
  const a = await digTwice(s.port, "www.example.test", "A", "-c", "ANY");
  assertEquals([a.status, a.flags, a.answer, a.authority], ["NOERROR", ["qr"], [
    "www.example.test. 600 IN A 192.0.2.1",
  ], []]);
  assertEquals(a.additional, []);
  const nx = await digTwice(s.port, "nx.example.test", "A", "-c", "ANY");
  assertEquals([nx.status, nx.flags, nx.authority], ["NXDOMAIN", ["qr"], []]);
  const nodata = await digTwice(s.port, "www.example.test", "TXT", "-c", "ANY");
  assertEquals([nodata.status, nodata.flags, nodata.authority], ["NOERROR", ["qr"], []]);
  const mx = await digTwice(s.port, "mx3.example.test", "MX", "-c", "ANY");
  assertEquals([mx.flags, mx.answer.length, mx.authority, mx.additional.length], [
    ["qr"],
    3,
    [],
    6,
  ]);
  const ref = await digTwice(s.port, "host.sub2.example.test", "A", "-c", "ANY");
  assertEquals([ref.flags, ref.authority.length, ref.additional.length], [["qr"], 8, 16]);
  const chain = await digTwice(s.port, "toother.example.test", "A", "-c", "ANY");
  assertEquals([chain.flags, chain.answer.length, chain.authority], [["qr"], 2, []]);
  // The same names in class IN are still authoritative, with their authority data.
  const inIn = await digTwice(s.port, "nx.example.test", "A");
  assertEquals([inIn.status, inIn.flags, inIn.authority.length], ["NXDOMAIN", ["aa", "qr"], 1]);
});

Deno.test("Extended DNS Errors: Not Authoritative outside our zones, Not Supported for other classes, with EDNS only", async () => {
  if (!haveSystem("dns extended errors", ["dig"])) return;
  await using s = await startDnsStack();
  await populateAnswerZones(s);
  const out = await digTwice(s.port, "www.example.org", "A");
  assertEquals([out.status, out.opt.filter((l) => l.includes("EDE"))], ["REFUSED", [
    "; EDE: 20 (Not Authoritative)",
  ]]);
  const root = await digTwice(s.port, ".", "A");
  assertEquals(root.opt.filter((l) => l.includes("EDE")), ["; EDE: 20 (Not Authoritative)"]);
  const plain = await digTwice(s.port, "www.example.org", "A", "+noedns");
  assertEquals([plain.status, plain.opt, plain.size], ["REFUSED", [], 33]);
  const chaos = await digTwice(s.port, "www.example.test", "A", "-c", "CH");
  assertEquals([chaos.status, chaos.opt.filter((l) => l.includes("EDE"))], ["REFUSED", [
    "; EDE: 21 (Not Supported)",
  ]]);
  // Answers from our zones carry none.
  const ok = await digTwice(s.port, "www.example.test", "A");
  assertEquals(ok.opt.filter((l) => l.includes("EDE")), []);
});

/** A raw IXFR query for example.test, with the client's SOA in authority or not, and EDNS. */
function ixfr(withSoa: boolean): Uint8Array {
  const soa = {
    name: "example.test",
    type: "SOA",
    data: { mname: "a.", rname: "b.", serial: 1, refresh: 1, retry: 1, expire: 1, minimum: 1 },
  };
  return new Uint8Array(dnsPacket.encode({
    type: "query",
    id: 77,
    questions: [{ name: "example.test", type: "IXFR", class: "IN" }],
    authorities: withSoa ? [soa] : [],
    additionals: [{ name: ".", type: "OPT", udpPayloadSize: 1232, flags: 0, options: [] }],
  }));
}

function decode(m: Uint8Array) {
  return dnsPacket.decode(Buffer.from(m));
}

/** The Extended DNS Error codes of a response's OPT record. */
function edeCodes(p: ReturnType<typeof decode>): number[] {
  const opt = p.additionals.find((r) => r.type === "OPT") as {
    options?: { code: number; data: Buffer }[];
  };
  return (opt?.options ?? []).filter((o) => o.code === 15).map((o) => o.data.readUInt16BE(0));
}

async function udp(s: DnsStack, msg: Uint8Array): Promise<Uint8Array> {
  const sock = Deno.listenDatagram({ hostname: "127.0.0.1", port: 0, transport: "udp" });
  try {
    await sock.send(msg, { transport: "udp", hostname: "127.0.0.1", port: s.port });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, no) =>
      timer = setTimeout(() => no(new Error("no reply")), 2000)
    );
    const [reply] = await Promise.race([sock.receive(), timeout]);
    clearTimeout(timer);
    return reply;
  } finally {
    sock.close();
  }
}

Deno.test("IXFR without the client's SOA is FORMERR; a refused transfer says Prohibited", async () => {
  {
    await using s = await startDnsStack();
    await populateAnswerZones(s);
    const bare = decode(await udp(s, ixfr(false)));
    assertEquals([bare.id, bare.rcode, bare.answers.length], [77, "FORMERR", 0]);
    assertEquals(bare.questions, [{ name: "example.test", type: "IXFR", class: "IN" }]);
    // Over TCP too, as NSD and Knot answer it.
    const [tcp] = now(s.responder.tcp(ixfr(false), "127.0.0.1"));
    assertEquals(decode(tcp).rcode, "FORMERR");
    // With the SOA: the current SOA alone (RFC 1995 §4).
    const ok = decode(await udp(s, ixfr(true)));
    assertEquals([ok.rcode, ok.answers.map((a) => a.type)], ["NOERROR", ["SOA"]]);
  }
  {
    await using s = await startDnsStack({ axfrAllow: ["192.0.2.1"] });
    await populateAnswerZones(s);
    const refused = decode(await udp(s, ixfr(true)));
    assertEquals([refused.rcode, edeCodes(refused)], ["REFUSED", [18]]);
  }
});
