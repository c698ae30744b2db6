/**
 * Response rate limiting on the real listener (issue 19): a flood of UDP
 * queries "from" one address gets at most the configured rate of answers
 * (every second limited answer slips out truncated, the rest are dropped),
 * while another address is answered normally throughout.
 */
import { Buffer } from "node:buffer";
import { assert, assertEquals } from "../assert.ts";
import { dnsPacket } from "../../lib/dns/packet.ts";
import { startDnsStack } from "./stack.ts";

function query(id: number): Uint8Array {
  return new Uint8Array(dnsPacket.encode({
    type: "query",
    id,
    questions: [{ name: "www.example.test", type: "A", class: "IN" }],
  }));
}

/** Sends `n` queries from `source`, then collects answers for `waitMs`. */
async function flood(port: number, source: string, n: number, waitMs: number) {
  const sock = Deno.listenDatagram({ hostname: source, port: 0, transport: "udp" });
  const got = { full: 0, truncated: 0 };
  const reader = (async () => {
    try {
      for (;;) {
        const [data] = await sock.receive();
        const r = dnsPacket.decode(Buffer.from(data));
        if (r.flag_tc) got.truncated++;
        else if (r.answers.length) got.full++;
      }
    } catch { /* closed */ }
  })();
  for (let i = 0; i < n; i++) {
    await sock.send(query(i), { transport: "udp", hostname: "127.0.0.1", port });
    // Paced so that the kernel's socket buffers lose none: what is counted is the limiter.
    if (i % 25 === 24) await new Promise((r) => setTimeout(r, 5));
  }
  await new Promise((r) => setTimeout(r, waitMs));
  sock.close();
  await reader;
  return got;
}

Deno.test("RRL: a flood from one source gets at most the rate, another source is answered normally", async () => {
  await using s = await startDnsStack({
    rrl: { rate: 20, slip: 2, ipv4Prefix: 24, ipv6Prefix: 56 },
  });
  await s.service.createZone("t", { name: "example.test", admin_email: "h@example.test" });
  await s.service.createRecord("t", "example.test", {
    domain: "www.example.test",
    type: "A",
    value: "192.0.2.1",
  });
  const started = Date.now();
  const [attacked, other] = await Promise.all([
    flood(s.port, "127.0.0.1", 400, 500),
    // 127.1.0.1 is loopback too, in another /24; it asks at a polite pace.
    (async () => {
      const got = { full: 0, truncated: 0 };
      for (let i = 0; i < 10; i++) {
        const r = await flood(s.port, "127.1.0.1", 1, 30);
        got.full += r.full;
        got.truncated += r.truncated;
      }
      return got;
    })(),
  ]);
  const seconds = (Date.now() - started) / 1000;
  // The burst (20) plus what refilled while the flood lasted, never the 400 sent.
  assert(attacked.full <= 20 + Math.ceil(seconds * 20), `full answers: ${attacked.full}`);
  assert(attacked.full >= 20, `full answers: ${attacked.full}`);
  // Of the limited answers about every second one slipped out truncated.
  const limited = 400 - attacked.full;
  const slipped = `truncated ${attacked.truncated} of ${limited}`;
  assert(attacked.truncated <= limited / 2 + 2, slipped);
  assert(attacked.truncated >= limited / 2 * 0.8, slipped);
  assertEquals(other, { full: 10, truncated: 0 });
});
