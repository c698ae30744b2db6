/**
 * Queries at the edges of RFC 1035's question, answered as NSD and Knot
 * answer them (the differential suite found each): meta QTYPEs looked up
 * like any type, DS at the apex of a child served here answered from the
 * parent (RFC 4035 §3.1.4.1), AXFR over UDP NOTIMP (RFC 5936 §4.2), and an
 * IXFR below a zone's apex NOTAUTH.
 */
import { now } from "../helpers/sync_answer.ts";
import { Buffer } from "node:buffer";
import { assertEquals } from "../assert.ts";
import { dnsPacket } from "../../lib/dns/packet.ts";
import { type DnsStack, startDnsStack } from "./stack.ts";

const DS = "12345 13 2 " + "ab".repeat(32);

async function populate(s: DnsStack) {
  for (const name of ["parent.test", "child.parent.test"]) {
    await s.service.createZone("test", { name, admin_email: `h@${name}` });
  }
  const add = (zone: string, domain: string, type: string, value: string) =>
    s.service.createRecord("test", zone, { domain, type, value });
  await add("parent.test", "www.parent.test", "A", "192.0.2.1");
  await add("parent.test", "alias.parent.test", "CNAME", "www.parent.test");
  await add("parent.test", "child.parent.test", "NS", "ns1.child.parent.test");
  await add("parent.test", "ns1.child.parent.test", "A", "192.0.2.53");
  await add("parent.test", "child.parent.test", "DS", DS);
  await add("child.parent.test", "www.child.parent.test", "A", "192.0.2.2");
}

function ask(s: DnsStack, name: string, type: string, transport: "udp" | "tcp" = "udp") {
  const msg = new Uint8Array(dnsPacket.encode({
    type: "query",
    id: 9,
    questions: [{ name, type, class: "IN" }],
  }));
  const reply = transport === "udp"
    ? now(s.responder.udp(msg, "127.0.0.1"))
    : now(s.responder.tcp(msg, "127.0.0.1"))[0];
  return dnsPacket.decode(Buffer.from(reply!));
}

const summary = (p: ReturnType<typeof ask>) => ({
  rcode: p.rcode,
  aa: p.flag_aa,
  answer: p.answers.map((r) => `${r.name} ${r.type}`),
  authority: p.authorities.map((r) => `${r.name} ${r.type}`),
});

Deno.test("meta QTYPEs (OPT, TSIG, TKEY, MAILA, MAILB, 128-254) are looked up like any type", async () => {
  await using s = await startDnsStack();
  await populate(s);
  for (const type of ["OPT", "TSIG", "TKEY", "MAILA", "MAILB", "TYPE200"]) {
    assertEquals(summary(ask(s, "www.parent.test", type)), {
      rcode: "NOERROR",
      aa: true,
      answer: [],
      authority: ["parent.test SOA"],
    }, `${type}: NODATA`);
    assertEquals(summary(ask(s, "alias.parent.test", type)).answer, ["alias.parent.test CNAME"]);
    assertEquals(summary(ask(s, "nope.parent.test", type)).rcode, "NXDOMAIN");
  }
});

Deno.test("DS at the apex of a child zone served here too is answered from the parent", async () => {
  await using s = await startDnsStack();
  await populate(s);
  const ds = ask(s, "child.parent.test", "DS");
  assertEquals(summary(ds), {
    rcode: "NOERROR",
    aa: true,
    answer: ["child.parent.test DS"],
    authority: [],
  });
  // Every other type at the child's apex comes from the child.
  assertEquals(summary(ask(s, "child.parent.test", "SOA")).answer, ["child.parent.test SOA"]);
  // With no parent served here, DS at an apex is NODATA from the zone itself.
  assertEquals(summary(ask(s, "parent.test", "DS")), {
    rcode: "NOERROR",
    aa: true,
    answer: [],
    authority: ["parent.test SOA"],
  });
});

Deno.test("AXFR over UDP is NOTIMP; an IXFR below a zone's apex is NOTAUTH", async () => {
  await using s = await startDnsStack();
  await populate(s);
  assertEquals(ask(s, "parent.test", "AXFR").rcode, "NOTIMP");
  assertEquals(ask(s, "www.parent.test", "AXFR").rcode, "NOTIMP");
  for (const transport of ["udp", "tcp"] as const) {
    assertEquals(ask(s, "www.parent.test", "IXFR", transport).rcode, "NOTAUTH", transport);
    assertEquals(ask(s, "parent.test", "IXFR", transport).rcode, "FORMERR", transport);
  }
});
