/**
 * DNAME on the wire (RFC 6672), against dig and kdig, as NSD 4.6 answers the
 * same data (answer_zones.ts): the DNAME, a CNAME synthesized from it with the
 * DNAME's TTL, then the answer for the new name from whichever zone served
 * here holds it; YXDOMAIN when the new name would be too long.
 */
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { haveSystem, run } from "../helpers/system.ts";
import {
  digTwice,
  LONG_TARGET,
  OTHER,
  populateAnswerZones,
  populateDnames,
} from "./answer_zones.ts";
import { type DnsStack, startDnsStack } from "./stack.ts";

async function stack(): Promise<DnsStack> {
  const s = await startDnsStack();
  await populateAnswerZones(s);
  await populateDnames(s);
  return s;
}

Deno.test("a name below a DNAME: the DNAME, the synthesized CNAME with the DNAME's TTL, the target's answer", async () => {
  if (!haveSystem("dns dname", ["dig"])) return;
  await using s = await stack();
  const www = await digTwice(s.port, "www.dn.example.test", "A");
  assertEquals([www.status, www.flags, www.size], ["NOERROR", ["aa", "qr"], 146]);
  assertEquals(www.inOrder.answer, [
    "dn.example.test. 300 IN DNAME other.test.",
    "www.dn.example.test. 300 IN CNAME www.other.test.",
    "www.other.test. 300 IN A 192.0.2.71",
  ]);
  assertEquals(www.authority, ["other.test. 300 IN NS ns1.other.test."]);
  assertEquals(www.additional, ["ns1.other.test. 300 IN A 192.0.2.70"]);

  // Nothing at the new name: NXDOMAIN with the SOA of the zone it lies in (RFC 6604).
  const serial = (await s.service.getZone(OTHER)).serial;
  const nx = await digTwice(s.port, "a.b.dn.example.test", "A");
  assertEquals([nx.status, nx.inOrder.answer], ["NXDOMAIN", [
    "dn.example.test. 300 IN DNAME other.test.",
    "a.b.dn.example.test. 300 IN CNAME a.b.other.test.",
  ]]);
  assertEquals(nx.authority, [
    `other.test. 60 IN SOA ns1.other.test. hostmaster.other.test. ${serial} 3600 600 604800 60`,
  ]);

  // Inside the zone, and on through a CNAME there.
  const c = await digTwice(s.port, "c.dnself.example.test", "A");
  assertEquals(c.inOrder.answer, [
    "dnself.example.test. 600 IN DNAME x.example.test.",
    "c.dnself.example.test. 600 IN CNAME c.x.example.test.",
    "c.x.example.test. 600 IN CNAME www.example.test.",
    "www.example.test. 600 IN A 192.0.2.1",
  ]);
  assertEquals([c.flags, c.authority.length, c.size], [["aa", "qr"], 2, 210]);

  // A CNAME query is answered by the synthesized CNAME alone.
  const cname = await digTwice(s.port, "www.dn.example.test", "CNAME");
  assertEquals([cname.answer.length, cname.authority], [2, []]);
});

Deno.test("the DNAME's own name: the DNAME answers a DNAME query, other types are NODATA", async () => {
  if (!haveSystem("dns dname", ["dig"])) return;
  await using s = await stack();
  const own = await digTwice(s.port, "dn.example.test", "DNAME");
  assertEquals([own.status, own.answer], ["NOERROR", [
    "dn.example.test. 300 IN DNAME other.test.",
  ]]);
  assertEquals(own.authority.length, 2);
  const nodata = await digTwice(s.port, "dn.example.test", "A");
  assertEquals([nodata.status, nodata.answer, nodata.authority.length], ["NOERROR", [], 1]);
});

Deno.test("a substituted name longer than 255 bytes is YXDOMAIN with the DNAME and an Extended DNS Error", async () => {
  if (!haveSystem("dns dname", ["dig"])) return;
  await using s = await stack();
  const label = "e".repeat(63);
  const long = await digTwice(s.port, `${label}.${label}.dnlong.example.test`, "A");
  assertEquals([long.status, long.flags], ["YXDOMAIN", ["aa", "qr"]]);
  assertEquals(long.answer, [`dnlong.example.test. 600 IN DNAME ${LONG_TARGET}.`]);
  assertEquals(long.opt.filter((l) => l.includes("EDE")), [
    "; EDE: 0 (Other): (DNAME expansion became too large)",
  ]);
  const plain = await digTwice(s.port, `${label}.${label}.dnlong.example.test`, "A", "+noedns");
  assertEquals([plain.status, plain.opt], ["YXDOMAIN", []]);
  // One short label still fits.
  const fits = await digTwice(s.port, "a.dnlong.example.test", "A");
  assertEquals([fits.status, fits.answer.length, fits.size], ["NOERROR", 2, 480]);
});

Deno.test("kdig reads DNAME answers, and AXFR carries the DNAME record", async () => {
  if (!haveSystem("dns dname", ["dig", "kdig"])) return;
  await using s = await stack();
  const k = await run("kdig", [
    "@127.0.0.1",
    "-p",
    String(s.port),
    "+norec",
    "www.dn.example.test",
    "A",
  ]);
  assertMatch(k.stdout, /dn\.example\.test\.\s+300\s+IN\s+DNAME\s+other\.test\./);
  assertMatch(k.stdout, /www\.dn\.example\.test\.\s+300\s+IN\s+CNAME\s+www\.other\.test\./);
  const axfr = await run("dig", ["@127.0.0.1", "-p", String(s.port), "example.test", "AXFR"]);
  const dnames = axfr.stdout.split("\n").filter((l) => /\sDNAME\s/.test(l));
  assertEquals(dnames.length, 3, axfr.stdout);
  assert(dnames.some((l) => /^dn\.example\.test\.\s+300\s+IN\s+DNAME\s+other\.test\.$/.test(l)));
});
