/**
 * Properties of every RDATA codec (parseRdata and the per-type parsers): a
 * valid value of any supported type gives the canonical form docs/dns.md
 * promises, that form parses back to itself, and the wire bytes decode with
 * dns-packet to the value generated, alone and inside an answer as the
 * responder builds it (compressed). Arbitrary text only ever fails with a
 * domain error, and what is accepted is canonical on the next parse.
 */
import { Buffer } from "node:buffer";
import fc from "fast-check";
import { assert, assertEquals } from "../../tests/assert.ts";
import { check, propertySeed } from "../../tests/dns/property.ts";
import { ORIGIN, rdataCase } from "../../tests/dns/rdata_arbitraries.ts";
import { answerData, decodeRdata, messageSafe } from "../../tests/dns/rdata_oracle.ts";
import { UnprocessableError, ValidationError } from "../errors.ts";
import { decodedBytes, dnsPacket } from "./packet.ts";
import { readQuery } from "./query.ts";
import { normalizeType, parseRdata, RECORD_TYPES, typeCode } from "./rdata.ts";
import { buildResponse } from "./response.ts";

const runs = propertySeed("rdata_property_test");

Deno.test("parseRdata(): a valid value of every type gives its canonical form, which parses back to itself", () => {
  check(
    fc.property(rdataCase, (c) => {
      const r = parseRdata(c.type, c.input, c.origin);
      assertEquals(r.value, c.canonical);
      const again = parseRdata(c.type, r.value, null);
      assertEquals([again.value, again.wire], [r.value, r.wire]);
    }),
    runs(2500),
  );
});

Deno.test("parseRdata(): the wire bytes decode with dns-packet to the value generated", () => {
  check(
    fc.property(rdataCase, (c) => {
      const r = parseRdata(c.type, c.input, c.origin);
      assertEquals(decodeRdata(c, r.wire), c.decoded);
      if (["CNAME", "DNAME", "NS", "PTR"].includes(c.type)) {
        assertEquals(r.target, c.decoded === "." ? "" : c.decoded);
      }
    }),
    runs(2500),
  );
});

Deno.test("an answer the responder builds (compressed) carries each record as dns-packet decodes it", () => {
  const owners = fc.constantFrom(ORIGIN, `a.${ORIGIN}`, `_x._tcp.a.${ORIGIN}`);
  check(
    fc.property(rdataCase, owners, (c, owner) => {
      fc.pre(messageSafe(c));
      const r = parseRdata(c.type, c.input, c.origin);
      const code = typeCode(c.type);
      const msg = new Uint8Array(dnsPacket.encode({
        type: "query",
        id: 4242,
        questions: [{ name: owner, type: `UNKNOWN_${code}`, class: "IN" }],
      }));
      const q = readQuery(msg)!;
      const set = { type: code, ttl: 300, rdatas: [Buffer.from(r.wire)], targets: [r.target] };
      const reply = buildResponse(msg, q, 0, true, null, { answer: [{ owner, set }] }, 65535);
      const p = dnsPacket.decode(Buffer.from(reply));
      assertEquals(decodedBytes(), reply.length);
      assertEquals(p.answers.length, 1);
      assertEquals(answerData(c, (p.answers[0] as { data: unknown }).data), c.decoded);
    }),
    runs(2000),
  );
});

/** Characters of presentation text, where parsers have edges, with some of anything. */
const presentationChar = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(..."0123456789abcdefABCDEF.:") },
  { weight: 3, arbitrary: fc.constantFrom(...' \t"\\()@;#*/-_xyz') },
  { weight: 1, arbitrary: fc.constantFrom("\n", "\r", "\0", "é", "😀", "\ud800", "\u00ff") },
  { weight: 1, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) },
);

/** Arbitrary text, and valid values with a few characters changed. */
const anyText = fc.oneof(
  fc.string({ unit: presentationChar, maxLength: 80 }),
  fc.tuple(
    rdataCase,
    fc.array(fc.tuple(fc.nat(), fc.nat(2), fc.string({ unit: presentationChar, maxLength: 3 })), {
      minLength: 1,
      maxLength: 3,
    }),
  ).map(([c, edits]) => {
    let s = c.input;
    for (const [at, how, text] of edits) {
      const i = at % (s.length + 1);
      s = how === 0 ? s.slice(0, i) + text + s.slice(i) : s.slice(0, i) + text + s.slice(i + 1);
    }
    return { type: c.type, text: s };
  }),
);

const anyType = fc.constantFrom(...RECORD_TYPES, "TYPE65280", "TYPE65", "TYPE1234");

Deno.test("parseRdata(): arbitrary text is refused with a domain error, or accepted in a form that is canonical", () => {
  check(
    fc.property(anyText, anyType, fc.constantFrom(null, ORIGIN), (t, someType, origin) => {
      const [type, text] = typeof t === "string" ? [someType, t] : [t.type, t.text];
      let r;
      try {
        r = parseRdata(type, text, origin);
      } catch (err) {
        assert(
          err instanceof ValidationError || err instanceof UnprocessableError,
          `${type} ${JSON.stringify(text)} threw ${err}`,
        );
        return;
      }
      assert(r.wire.length <= 65535);
      const again = parseRdata(type, r.value, null);
      assertEquals([again.value, again.wire], [r.value, r.wire]);
    }),
    runs(4000),
  );
});

Deno.test("normalizeType(): arbitrary text is refused with ValidationError, or gives a canonical name", () => {
  const typeText = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.mixedCase(fc.constantFrom(...RECORD_TYPES, "type", "TYPE00065", "TYPE65536", "TYPE1")),
    fc.integer({ min: 0, max: 99999 }).map((n) => `type${n}`),
  );
  check(
    fc.property(typeText, (text) => {
      let t;
      try {
        t = normalizeType(text);
      } catch (err) {
        assert(err instanceof ValidationError, `${JSON.stringify(text)} threw ${err}`);
        return;
      }
      assertEquals(normalizeType(t), t);
    }),
    runs(2000),
  );
});
