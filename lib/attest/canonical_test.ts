import { assertEquals } from "../../tests/assert.ts";
import { canonicalPayload, entropyJson, type HeartbeatFields, stackJson } from "./canonical.ts";

const fields: HeartbeatFields = {
  sessionId: "aa".repeat(32),
  prevHash: "bb".repeat(32),
  timestamp: 1767225600000,
  events: [{ x: 10.5, y: 20, t: 0 }, { x: 11, y: -0, t: 16.7 }],
  stackState: { stack: [1, 4294967295], ip: 12 },
  fingerprint: { aspectRatio: "1.7777777778", devicePixelRatio: "2", hardwareConcurrency: 8 },
  mutationStep: 3,
  geneCommitment: "cc".repeat(32),
};

Deno.test("canonicalPayload() sorts keys at every level and has no whitespace", () => {
  assertEquals(
    canonicalPayload(fields),
    '{"entropyData":{"events":[{"t":0,"x":10.5,"y":20},{"t":16.7,"x":11,"y":0}]},' +
      '"fingerprint":{"aspectRatio":"1.7777777778","devicePixelRatio":"2","hardwareConcurrency":8},' +
      `"geneCommitment":"${"cc".repeat(32)}","mutationStep":3,"prevHash":"${"bb".repeat(32)}",` +
      `"sessionId":"${"aa".repeat(32)}","stackState":{"ip":12,"stack":[1,4294967295]},` +
      '"timestamp":1767225600000}',
  );
});

Deno.test("canonicalPayload() ignores extra fields and input key order", () => {
  // Keys in reverse order plus unknown fields, as a parsed request might have them.
  const reversed = Object.fromEntries(Object.entries(fields).reverse());
  const shuffled = JSON.parse(JSON.stringify({
    extra: 1,
    ...reversed,
    events: fields.events.map((e) => ({ y: e.y, extra: true, t: e.t, x: e.x })),
  }));
  assertEquals(canonicalPayload(shuffled), canonicalPayload(fields));
});

Deno.test("entropyJson() and stackJson() are the nested objects of the payload", () => {
  assertEquals(
    entropyJson(fields.events),
    '{"events":[{"t":0,"x":10.5,"y":20},{"t":16.7,"x":11,"y":0}]}',
  );
  assertEquals(stackJson(fields.stackState), '{"ip":12,"stack":[1,4294967295]}');
  assertEquals(entropyJson([]), '{"events":[]}');
});
