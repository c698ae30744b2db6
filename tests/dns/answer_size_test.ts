/**
 * How answers fit a UDP message, against dig, as NSD 4.6 answers the same
 * data (answer_zones.ts): RFC 2181 §9 sets TC only when required data does
 * not fit, so the zone's NS and the additional data go first; additional data
 * is added as space allows, in NSD's order; a referral sets TC when its
 * in-domain glue does not fit (RFC 9471), not for sibling glue.
 */
import { assertEquals } from "../assert.ts";
import { haveSystem } from "../helpers/system.ts";
import { digTwice, LONG_TXT, populateAnswerZones } from "./answer_zones.ts";
import { startDnsStack } from "./stack.ts";

const mxTargets = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `mx8.example.test. 600 IN MX ${i + 1} n${i + 1}.example.test.`,
  );

Deno.test("an answer that fits is sent whole without the zone's NS, not truncated", async () => {
  if (!haveSystem("dns answer sizes", ["dig"])) return;
  await using s = await startDnsStack();
  await populateAnswerZones(s);
  // 499 bytes without EDNS once the two optional NS records are left out.
  const long = await digTwice(s.port, "long.example.test", "TXT", "+noedns");
  assertEquals([long.status, long.flags, long.size], ["NOERROR", ["aa", "qr"], 499]);
  assertEquals(long.answer, [`long.example.test. 600 IN TXT ${LONG_TXT}`]);
  assertEquals([long.authority, long.additional], [[], []]);
  // With EDNS and room, the NS and their addresses are there again.
  const roomy = await digTwice(s.port, "long.example.test", "TXT");
  assertEquals([roomy.flags, roomy.authority.length, roomy.additional.length], [
    ["aa", "qr"],
    2,
    2,
  ]);

  // 34 addresses take 589 bytes with EDNS: under a 600-byte limit, whole, without NS.
  const big = await digTwice(s.port, "big.example.test", "A", "+bufsize=600");
  assertEquals([big.status, big.flags, big.size], ["NOERROR", ["aa", "qr"], 589]);
  assertEquals([big.answer.length, big.authority, big.additional], [34, [], []]);
});

Deno.test("an answer RRset that does not fit sets TC and keeps the whole RRsets before it", async () => {
  if (!haveSystem("dns answer sizes", ["dig"])) return;
  await using s = await startDnsStack();
  await populateAnswerZones(s);
  const r = await digTwice(s.port, "tobig.example.test", "A", "+noedns");
  assertEquals([r.status, r.flags, r.size], ["NOERROR", ["aa", "qr", "tc"], 54]);
  assertEquals(r.answer, ["tobig.example.test. 600 IN CNAME big.example.test."]);
  assertEquals([r.authority, r.additional], [[], []]);
  const alone = await digTwice(s.port, "big.example.test", "A", "+noedns");
  assertEquals([alone.flags, alone.answer, alone.size], [["aa", "qr", "tc"], [], 34]);
});

Deno.test("additional data: every A RRset, then every AAAA, as far as they fit, without TC", async () => {
  if (!haveSystem("dns additional data", ["dig"])) return;
  await using s = await startDnsStack();
  await populateAnswerZones(s);
  const mx3 = await digTwice(s.port, "mx3.example.test", "MX", "+noedns");
  assertEquals([mx3.flags, mx3.size], [["aa", "qr"], 303]);
  assertEquals(mx3.inOrder.additional, [
    "m1.example.test. 600 IN A 192.0.2.11",
    "m2.example.test. 600 IN A 192.0.2.12",
    "m3.example.test. 600 IN A 192.0.2.13",
    "ns1.example.test. 600 IN A 192.0.2.53",
    "m1.example.test. 600 IN AAAA 2001:db8::11",
    "m2.example.test. 600 IN AAAA 2001:db8::12",
    "m3.example.test. 600 IN AAAA 2001:db8::13",
    "ns2.example.test. 600 IN AAAA 2001:db8::53",
  ]);

  // Eight targets: the A RRsets fit 512 bytes, five of the AAAA, and the answer is not truncated.
  const mx8 = await digTwice(s.port, "mx8.example.test", "MX", "+noedns");
  assertEquals([mx8.status, mx8.flags, mx8.size], ["NOERROR", ["aa", "qr"], 506]);
  assertEquals(mx8.inOrder.answer, mxTargets(8));
  assertEquals(mx8.authority.length, 2);
  assertEquals(mx8.inOrder.additional, [
    ...Array.from({ length: 8 }, (_, i) => `n${i + 1}.example.test. 600 IN A 192.0.5.${i + 1}`),
    "ns1.example.test. 600 IN A 192.0.2.53",
    ...Array.from(
      { length: 5 },
      (_, i) => `n${i + 1}.example.test. 600 IN AAAA 2001:db8:5::${i + 1}`,
    ),
  ]);
});

Deno.test("glue as space allows: TC when in-domain glue is left out (RFC 9471), not for sibling glue", async () => {
  if (!haveSystem("dns glue", ["dig"])) return;
  await using s = await startDnsStack();
  await populateAnswerZones(s);
  const ns = (cut: string) =>
    Array.from(
      { length: 8 },
      (_, i) => `${cut}.example.test. 600 IN NS ns${i + 1}.sub2.example.test.`,
    );
  const glue = (aaaa: number) => [
    ...Array.from(
      { length: 8 },
      (_, i) => `ns${i + 1}.sub2.example.test. 600 IN A 192.0.3.${i + 1}`,
    ),
    ...Array.from(
      { length: aaaa },
      (_, i) => `ns${i + 1}.sub2.example.test. 600 IN AAAA 2001:db8:3::${i + 1}`,
    ),
  ];
  // A referral: the NS and the glue that fits, TC for the AAAA left out. The records are NSD's;
  // NSD 4.6 sets TC only when no glue fits at all, Knot 3.2 as here.
  const ref = await digTwice(s.port, "host.sub2.example.test", "A", "+noedns");
  assertEquals([ref.status, ref.flags, ref.size], ["NOERROR", ["qr", "tc"], 508]);
  assertEquals([ref.inOrder.authority, ref.inOrder.additional], [ns("sub2"), glue(7)]);
  // The same glue after a CNAME into the delegation.
  const viaCname = await digTwice(s.port, "tosub2.example.test", "A", "+noedns");
  assertEquals([viaCname.flags, viaCname.size], [["aa", "qr", "tc"], 501]);
  assertEquals(viaCname.answer, ["tosub2.example.test. 600 IN CNAME host.sub2.example.test."]);
  assertEquals([viaCname.inOrder.authority, viaCname.inOrder.additional], [ns("sub2"), glue(6)]);
  // Name servers under another cut: sibling glue, left out without TC.
  const sib = await digTwice(s.port, "host.sib.example.test", "A", "+noedns");
  assertEquals([sib.status, sib.flags, sib.size], ["NOERROR", ["qr"], 512]);
  assertEquals([sib.inOrder.authority, sib.inOrder.additional], [ns("sib"), glue(7)]);
  // With room, all of it and no TC.
  const whole = await digTwice(s.port, "host.sub2.example.test", "A");
  assertEquals([whole.flags, whole.inOrder.additional], [["qr"], glue(8)]);
});
