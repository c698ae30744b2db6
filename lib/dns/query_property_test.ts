/**
 * Properties of the query reader (readQuery, checkFullQuery): no input makes
 * it throw, what it reads of any input is consistent with the bytes, and a
 * well-formed query from dns-packet reads back as what was encoded.
 */
import { Buffer } from "node:buffer";
import fc from "fast-check";
import { assert, assertEquals } from "../../tests/assert.ts";
import { check, propertySeed } from "../../tests/dns/property.ts";
import {
  anyMessage,
  encodeQuery,
  type QuerySpec,
  querySpec,
} from "../../tests/dns/query_arbitraries.ts";
import { checkFullQuery } from "./full_query.ts";
import { decodedBytes, dnsPacket } from "./packet.ts";
import { type Query, readQuery } from "./query.ts";

const runs = propertySeed("query_property_test");

/** The name as readQuery documents it: lowercase, [a-z0-9-_] and a whole "*" label kept, other bytes \DDD, no final dot. */
function documentedName(labels: Uint8Array[]): string {
  const keep = (b: number) =>
    (b >= 0x61 && b <= 0x7a) || (b >= 0x30 && b <= 0x39) || "-_".includes(String.fromCharCode(b));
  return labels.map((l) =>
    l.length === 1 && l[0] === 0x2a
      ? "*"
      : [...l].map((b) => (b >= 0x41 && b <= 0x5a ? b + 32 : b)).map((b) =>
        keep(b) ? String.fromCharCode(b) : "\\" + String(b).padStart(3, "0")
      ).join("")
  ).join(".");
}

/** readQuery, then the full check when the message is more than a question and an OPT. */
function read(msg: Uint8Array): { q: Query | null; ok: boolean } {
  const q = readQuery(msg);
  if (!q) return { q, ok: false };
  return { q, ok: q.plain || checkFullQuery(msg, q) };
}

Deno.test("readQuery() and checkFullQuery() never throw, and what they read matches the bytes", () => {
  check(
    fc.property(anyMessage, (msg) => {
      const { q } = read(msg);
      if (msg.length < 12) assertEquals(q, null);
      if (!q) return;
      assertEquals(q.id, (msg[0] << 8) | msg[1]);
      assertEquals(q.flags, (msg[2] << 8) | msg[3]);
      assertEquals(q.opcode, (msg[2] >> 3) & 0xf);
      assert(12 < q.nameEnd && q.nameEnd + 4 === q.questionEnd && q.questionEnd <= msg.length);
      assertEquals(q.qtype, (msg[q.nameEnd] << 8) | msg[q.nameEnd + 1]);
      assertEquals(q.qclass, (msg[q.nameEnd + 2] << 8) | msg[q.nameEnd + 3]);
    }),
    runs(3000),
  );
});

Deno.test("a message readQuery() calls plain decodes in full with dns-packet, to the same question", () => {
  check(
    fc.property(anyMessage, (msg) => {
      const q = readQuery(msg);
      if (!q?.plain) return;
      const p = dnsPacket.decode(Buffer.from(msg));
      assertEquals(decodedBytes(), msg.length);
      assertEquals([p.questions.length, p.answers.length, p.authorities.length], [1, 0, 0]);
      assertEquals(p.id, q.id);
    }),
    runs(3000),
  );
});

Deno.test("a well-formed query reads back as dns-packet encoded it: id, name, type, class, opcode, EDNS", () => {
  check(
    fc.property(querySpec, (spec: QuerySpec) => {
      const msg = encodeQuery(spec);
      const { q, ok } = read(msg);
      assert(q, "the header and question are read");
      assert(ok, "the message passes the full check");
      assertEquals(q.plain, spec.extra.length === 0);
      assertEquals(
        [q.id, q.flags, q.opcode, q.name, q.qtype, q.qclass],
        [
          spec.id,
          spec.flags,
          (spec.flags >> 11) & 0xf,
          documentedName(spec.labels),
          spec.qtype,
          spec.qclass,
        ],
      );
      const e = spec.edns;
      assertEquals(
        q.edns,
        e ? { version: e.version, do: (e.flags & 0x8000) !== 0, udpSize: e.udpSize } : null,
      );
    }),
    runs(2000),
  );
});
