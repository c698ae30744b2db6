/**
 * NSEC building blocks: the type bitmap (RFC 4034 §4.1.2) against the RFC's
 * own example and dnspython's decoder, and the names just before and after a
 * name (RFC 4470 §2, RFC 4471) against dnspython's canonical ordering.
 */
import { assert, assertEquals } from "../assert.ts";
import { nameLabels } from "../../lib/dns/dnssec/canonical.ts";
import {
  afterSubtree,
  labelsText,
  nsecRdata,
  predecessor,
  successor,
  typeBitmap,
} from "../../lib/dns/dnssec/nsec.ts";
import { hex } from "./dnssec_keys.ts";
import { dnspython, nsecFacts, sortedOrder } from "./dnssec_py.ts";

const APEX = "example.test";
const APEX_LABELS = 2;

Deno.test("the type bitmap of RFC 4034 §4.3's example: A MX RRSIG NSEC TYPE1234", () => {
  // RFC 4034 §4.3, the RDATA after the next name.
  const rfc = "0006400100000003041b" + "00".repeat(26) + "20";
  assertEquals(hex(typeBitmap([1, 15, 46, 47, 1234])), rfc);
  assertEquals(
    hex(typeBitmap([47, 1234, 15, 1, 46, 15])),
    rfc,
    "order and duplicates do not matter",
  );
});

Deno.test("dnspython decodes the bitmap to the types given, across windows", async () => {
  const py = await dnspython("dnssec nsec");
  if (!py) return;
  const sets = [[1], [2, 6, 46, 47, 48], [1, 15, 46, 47, 257, 1234, 32769, 65534], [255, 256, 511]];
  const facts = await nsecFacts(
    py,
    sets.map((types) => ({ owner: APEX, rdata: nsecRdata("next.example.test", types), probe: [] })),
  );
  assertEquals(facts.map((f) => f.types), sets);
  assertEquals(facts.map((f) => f.next), sets.map(() => "next.example.test."));
});

const L63 = "a".repeat(63);
/** 3 × 63 + 47 bytes of labels under example.test: 254 bytes on the wire, no room for another label. */
const LONG = `${"a".repeat(47)}.${L63}.${L63}.${L63}.${APEX}`;
/** The same at 255 bytes: not even a byte more fits. */
const FULL = `${"a".repeat(48)}.${L63}.${L63}.${L63}.${APEX}`;
const FULL_FF = `${"\\255".repeat(48)}.${L63}.${L63}.${L63}.${APEX}`;
const FF62 = "\\255".repeat(62);

const pred = (n: string) => labelsText(predecessor(nameLabels(n), APEX_LABELS));
const succ = (n: string) => {
  const s = successor(nameLabels(n), APEX_LABELS);
  return s ? labelsText(s) : null;
};
const after = (n: string) => {
  const s = afterSubtree(nameLabels(n), APEX_LABELS);
  return s ? labelsText(s) : null;
};

Deno.test("names just before and after a name, by RFC 4470 §2 and RFC 4471", () => {
  assertEquals(succ("b.example.test"), "\\000.b.example.test");
  assertEquals(pred("b.example.test"), `a${FF62}.example.test`);
  // RFC 4470 §2's wildcard example: ")" is the byte before "*".
  assertEquals(pred("*.example.test"), `\\041${FF62}.example.test`);
  // Canonical form has no upper case: before "[" comes "@", after "@" comes "[".
  assertEquals(pred("\\091.example.test"), `\\064${FF62}.example.test`);
  assertEquals(after("\\064.example.test"), "\\064\\000.example.test");
  assertEquals(after(`${FF62}\\064.example.test`), `${FF62}\\091.example.test`);
  // A trailing \000 is dropped; a \000 label steps back to its parent's predecessor.
  assertEquals(pred("a\\000.example.test"), "a.example.test");
  assertEquals(pred("\\000.b.example.test"), `a${FF62}.example.test`);
  assertEquals(pred("\\000.example.test"), "example.test");
  // Never a wildcard owner: "+" steps down to "*" only with filler after it.
  assert(!pred("\\043.example.test").startsWith("*."));
  assertEquals(
    pred(`+.${"a".repeat(63)}.${L63}.${L63}.${"a".repeat(46)}.${APEX}`).split(".")[0],
    "\\041",
  );
  // Without room for a \000 label: a \000 byte on the first label, or its last byte stepped up.
  assertEquals(succ(LONG), `${"a".repeat(47)}\\000.${L63}.${L63}.${L63}.${APEX}`);
  assertEquals(succ(FULL), `${"a".repeat(47)}b.${L63}.${L63}.${L63}.${APEX}`);
  assertEquals(succ(FULL_FF), `${"a".repeat(62)}b.${L63}.${L63}.${APEX}`);
  assertEquals(pred(FULL), `${"a".repeat(47)}\\096.${L63}.${L63}.${L63}.${APEX}`);
  assertEquals(after("b.example.test"), "b\\000.example.test");
  assertEquals(after(`\\255.${APEX}`), `\\255\\000.${APEX}`);
});

Deno.test("dnspython orders each name between the names made before and after it", async () => {
  const py = await dnspython("dnssec nsec");
  if (!py) return;
  const names = [
    "b.example.test",
    "*.example.test",
    "\\091.example.test",
    "a\\000.example.test",
    "\\000.b.example.test",
    "\\255\\255.example.test",
    "x.y.z.example.test",
    "_sip._tcp.example.test",
    LONG,
    FULL,
    FULL_FF,
  ];
  const groups = names.flatMap((n) => {
    const below = n.length < 200 ? [`\\000.${n}`, `zz.${n}`] : [];
    return [[pred(n), n, succ(n)!], [n, ...below, after(n)!]];
  });
  const orders = await sortedOrder(py, groups);
  assertEquals(orders, groups.map((g) => g.map((_, i) => i)));
});
