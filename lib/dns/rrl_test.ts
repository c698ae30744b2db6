import { Buffer } from "node:buffer";
import { assertEquals } from "../../tests/assert.ts";
import { dnsPacket } from "./packet.ts";
import { prefixKey, ResponseRateLimiter, rrlFor, truncatedAnswer } from "./rrl.ts";

const OPTS = { rate: 10, slip: 2, ipv4Prefix: 24, ipv6Prefix: 56 };

Deno.test("ResponseRateLimiter answers `rate` per second per prefix, then slips every second answer and drops the rest", () => {
  const rrl = new ResponseRateLimiter(OPTS);
  const verdicts = Array.from({ length: 16 }, () => rrl.check("192.0.2.7", 1000));
  assertEquals(verdicts.filter((v) => v === "answer").length, 10);
  assertEquals(verdicts.slice(10), ["drop", "slip", "drop", "slip", "drop", "slip"]);
  // The same /24 shares the budget; another /24 has its own.
  assertEquals(rrl.check("192.0.2.200", 1000), "drop");
  assertEquals(rrl.check("192.0.3.1", 1000), "answer");
  // Half a second later five tokens have come back.
  const later = Array.from({ length: 6 }, () => rrl.check("192.0.2.7", 1500));
  assertEquals(later.filter((v) => v === "answer").length, 5);
  // slip 0 drops every limited answer.
  const strict = new ResponseRateLimiter({ ...OPTS, rate: 1, slip: 0 });
  strict.check("198.51.100.1", 0);
  assertEquals([strict.check("198.51.100.1", 0), strict.check("198.51.100.1", 0)], [
    "drop",
    "drop",
  ]);
});

Deno.test("prefixKey() groups IPv4 by /24 and IPv6 by /56 by default, and maps per the settings", () => {
  assertEquals(prefixKey("192.0.2.7", OPTS), prefixKey("192.0.2.250", OPTS));
  assertEquals(prefixKey("192.0.2.7", OPTS) === prefixKey("192.0.3.7", OPTS), false);
  assertEquals(prefixKey("2001:db8:0:ab00::1", OPTS), prefixKey("2001:db8:0:abff:ffff::9", OPTS));
  assertEquals(
    prefixKey("2001:db8:0:ab00::1", OPTS) === prefixKey("2001:db8:0:ac00::1", OPTS),
    false,
  );
  assertEquals(
    prefixKey("192.0.2.7", { ...OPTS, ipv4Prefix: 32 }) ===
      prefixKey("192.0.2.8", { ...OPTS, ipv4Prefix: 32 }),
    false,
  );
});

Deno.test("truncatedAnswer() is the query's question with QR and TC set and no records (decoded by dns-packet)", () => {
  const query = dnsPacket.encode({
    type: "query",
    id: 4242,
    flags: dnsPacket.RECURSION_DESIRED,
    questions: [{ name: "www.example.test", type: "AAAA", class: "IN" }],
    additionals: [{ type: "OPT", name: ".", udpPayloadSize: 1232 }],
  });
  const questionEnd = 12 + "www.example.test".length + 2 + 4;
  const r = dnsPacket.decode(
    Buffer.from(truncatedAnswer(new Uint8Array(query), questionEnd, true)),
  );
  assertEquals(r.id, 4242);
  assertEquals(r.type, "response");
  assertEquals([r.flag_tc, r.flag_aa, r.flag_rd, r.rcode], [true, true, true, "NOERROR"]);
  assertEquals(r.questions, [{ name: "www.example.test", type: "AAAA", class: "IN" }]);
  assertEquals([r.answers.length, r.authorities.length, r.additionals.length], [0, 0, 0]);
});

Deno.test("rrlFor() limits a public listener by default and a loopback one only when asked", () => {
  const s = { mode: "auto" as const, ...OPTS };
  assertEquals(rrlFor(s, "127.0.0.1"), null);
  assertEquals(rrlFor(s, "::1"), null);
  assertEquals(rrlFor(s, "0.0.0.0") instanceof ResponseRateLimiter, true);
  assertEquals(rrlFor({ ...s, mode: "on" }, "127.0.0.1") instanceof ResponseRateLimiter, true);
  assertEquals(rrlFor({ ...s, mode: "off" }, "0.0.0.0"), null);
});
