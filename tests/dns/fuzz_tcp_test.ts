/**
 * 100,000 random and mutated messages over DNS TCP, framed and misframed
 * (a length prefix longer or shorter than the message, a message split
 * across writes, several in one write): the listener stays up, every reply
 * it sends decodes as a response, a valid query is still answered, and no
 * handler exception is logged. Seeded; a failure prints the seed.
 */
import { assert, assertEquals } from "../assert.ts";
import { createLogger } from "../../lib/log/log.ts";
import { badReply, corpus, fuzzPacket, fuzzSeed, rng } from "./fuzz_mutations.ts";
import { type DnsStack, startDnsStack } from "./stack.ts";

const TOTAL = 100_000;
const PER_CONNECTION = 500;
const PARALLEL = 8;
const TIME_LIMIT_MS = 120_000;

async function populate(s: DnsStack) {
  await s.service.createZone("fuzz", { name: "fuzz.test", admin_email: "h@fuzz.test" });
  const add = (domain: string, type: string, value: string) =>
    s.service.createRecord("fuzz", "fuzz.test", { domain, type, value });
  await add("www.fuzz.test", "A", "192.0.2.1");
  await add("alias.fuzz.test", "CNAME", "www.fuzz.test");
  await add("*.wild.fuzz.test", "TXT", "w");
  await add("sub.fuzz.test", "NS", "ns.sub.fuzz.test");
  await add("ns.sub.fuzz.test", "A", "192.0.2.2");
  for (let i = 0; i < 6; i++) await add("big.fuzz.test", "TXT", `${i}${"z".repeat(250)}`);
}

/** A frame of `msg`: its length prefix, sometimes wrong by a little. */
function frame(msg: Uint8Array, r: (n: number) => number): Uint8Array {
  // About one misframed message per connection: after it the stream is out of step.
  const off = r(PER_CONNECTION) === 0 ? [-1, 1, 300][r(3)] : 0;
  const len = Math.max(0, Math.min(65535, msg.length + off));
  return new Uint8Array([len >> 8, len & 255, ...msg]);
}

/** Reads framed replies until the connection ends or goes quiet; each bad one goes to `failures`. */
async function drain(conn: Deno.Conn, failures: string[], quietMs: number): Promise<number> {
  let buf = new Uint8Array(0);
  let replies = 0;
  const chunk = new Uint8Array(65536);
  for (;;) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const quiet = new Promise<null>((r) => timer = setTimeout(() => r(null), quietMs));
    const n = await Promise.race([conn.read(chunk).catch(() => null), quiet]);
    clearTimeout(timer);
    if (n === null) return replies;
    buf = new Uint8Array([...buf, ...chunk.subarray(0, n)]);
    while (buf.length >= 2 && buf.length >= 2 + ((buf[0] << 8) | buf[1])) {
      const len = (buf[0] << 8) | buf[1];
      const bad = badReply(buf.subarray(2, 2 + len));
      if (bad && failures.length < 20) failures.push(bad);
      replies++;
      buf = buf.subarray(2 + len);
    }
  }
}

/** One connection's worth: PER_CONNECTION messages, written in random slices. */
async function episode(
  port: number,
  seeds: Uint8Array[],
  r: (n: number) => number,
  failures: string[],
) {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    const bytes: number[] = [];
    for (let i = 0; i < PER_CONNECTION; i++) bytes.push(...frame(fuzzPacket(seeds, r), r));
    const all = new Uint8Array(bytes);
    const reading = drain(conn, failures, 150);
    for (let at = 0; at < all.length;) {
      const end = Math.min(all.length, at + 1 + r(4096));
      await conn.write(all.subarray(at, end)).catch(() => 0);
      at = end;
    }
    return await reading;
  } finally {
    try {
      conn.close();
    } catch { /* closed by the server */ }
  }
}

Deno.test("fuzz over TCP: 100,000 framed and misframed messages; the listener lives, replies decode, nothing throws", async () => {
  const seed = fuzzSeed("fuzz over TCP");
  const logged: string[] = [];
  await using s = await startDnsStack({
    tcp: { perAddress: PARALLEL * 2, firstQueryMs: 1000, idleMs: 1000 },
    log: createLogger("warn", (line) => logged.push(line)),
  });
  await populate(s);
  const seeds = corpus();
  const r = rng(seed);
  const failures: string[] = [];
  const started = Date.now();
  let sent = 0;
  let replies = 0;
  while (sent < TOTAL && Date.now() - started < TIME_LIMIT_MS) {
    const round = Array.from({ length: PARALLEL }, () => episode(s.port, seeds, r, failures));
    sent += PARALLEL * PER_CONNECTION;
    replies += (await Promise.all(round)).reduce((a, b) => a + b, 0);
  }
  console.log(`fuzz over TCP: sent ${sent}, replies ${replies}, ${Date.now() - started} ms`);
  assert(sent >= TOTAL, `sent only ${sent} within the time limit (seed ${seed})`);
  assertEquals(failures, [], `seed ${seed}`);
  const thrown = logged.filter((l) => l.includes("handler failed"));
  assertEquals(thrown, [], `seed ${seed}`);
  // Garbage and a stream out of step get no reply; well-framed queries do.
  assert(replies > TOTAL * 0.1, `only ${replies} replies (seed ${seed})`);
  // Still up and answering.
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: s.port });
  try {
    await conn.write(frame(seeds[0], () => 1));
    const got: string[] = [];
    assertEquals(await drain(conn, got, 2000) >= 1, true, "a valid query is answered");
    assertEquals(got, []);
  } finally {
    conn.close();
  }
});
