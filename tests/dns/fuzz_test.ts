/**
 * 100,000 random and mutated packets at the UDP listener: it must stay up,
 * and every reply must decode in full and be a response with a known rcode,
 * echoing one question unless it is FORMERR, and no handler exception may
 * be logged. Among the seeds are TSIG-signed queries (valid, with an unknown
 * key, with a clock far off), so mangled TSIG records reach the verifier,
 * and dynamic updates unsigned and signed (update_seeds.ts), so mangled
 * prerequisite and update sections reach the update parser.
 * Seeded; a failure prints the seed to replay it.
 */
import { Buffer } from "node:buffer";
import { assert, assertEquals } from "../assert.ts";
import { decodedBytes, dnsPacket } from "../../lib/dns/packet.ts";
import { createLogger } from "../../lib/log/log.ts";
import { materialOf, signRequest } from "../../lib/dns/tsig/sign.ts";
import { answerable, fuzzPacket, fuzzSeed, rng } from "./fuzz_mutations.ts";
import { type DnsStack, startDnsStack } from "./stack.ts";
import { updateSeeds } from "./update_seeds.ts";

const TOTAL = 100_000;
const WINDOW = 128;
const TIME_LIMIT_MS = 240_000;

function corpus(): Uint8Array[] {
  const q = (name: string, type: string, extra: Record<string, unknown> = {}) =>
    new Uint8Array(
      dnsPacket.encode({
        type: "query",
        id: 7,
        questions: [{ name, type, class: "IN" }],
        ...extra,
      }),
    );
  const opt = (options: unknown[] = [], flags = 0) => ({
    additionals: [{ name: ".", type: "OPT", udpPayloadSize: 4096, flags, options }],
  });
  return [
    q("www.fuzz.test", "A"),
    q("WWW.Fuzz.Test", "AAAA", opt()),
    q("alias.fuzz.test", "A", opt([], dnsPacket.DNSSEC_OK)),
    q("x.wild.fuzz.test", "TXT", opt([{ code: 10, data: Buffer.from("0123456789abcdef", "hex") }])),
    q("nope.fuzz.test", "MX"),
    q("nope.fuzz.test", "MX", opt([], dnsPacket.DNSSEC_OK)),
    q("x.wild.fuzz.test", "TXT", opt([], dnsPacket.DNSSEC_OK)),
    q("x.wild.fuzz.test", "AAAA", opt([], dnsPacket.DNSSEC_OK)),
    q("host.sub.fuzz.test", "A", opt([], dnsPacket.DNSSEC_OK)),
    q("sub.fuzz.test", "DS", opt([], dnsPacket.DNSSEC_OK)),
    q("fuzz.test", "DNSKEY", opt([], dnsPacket.DNSSEC_OK)),
    q("host.sub.fuzz.test", "A"),
    q("fuzz.test", "ANY"),
    q("fuzz.test", "AXFR"),
    q("fuzz.test", "IXFR", {
      authorities: [{
        name: "fuzz.test",
        type: "SOA",
        data: { mname: "a.", rname: "b.", serial: 1, refresh: 1, retry: 1, expire: 1, minimum: 1 },
      }],
    }),
    q("big.fuzz.test", "TXT", opt()),
    q("example.org", "A"),
    new Uint8Array(dnsPacket.encode({
      type: "query",
      id: 9,
      flags: (4 << 11) | dnsPacket.AUTHORITATIVE_ANSWER,
      questions: [{ name: "fuzz.test", type: "SOA" }],
    })),
  ];
}

/** Queries signed with a key of the stack, with an unknown key, and at a time far off. */
async function signedSeeds(s: DnsStack, plain: Uint8Array[]): Promise<Uint8Array[]> {
  const key = materialOf(
    await s.tsig.create("fuzz", {
      name: "fuzz-key",
      zones: ["fuzz.test"],
      permissions: ["transfer", "update"],
    }),
  );
  const unknown = { ...key, name: "no-such-key" };
  const now = Date.now() / 1000;
  // Dynamic updates, unsigned (REFUSED) and signed: mangled sections reach the update parser.
  const updates = updateSeeds("fuzz.test").flatMap((m) => [
    m,
    signRequest(m, key, now).bytes,
    signRequest(m, key, now).bytes,
    signRequest(m, unknown, now).bytes,
  ]);
  return updates.concat(plain.slice(0, 4)).concat(plain.filter((m) => m[m.length - 3] === 252))
    .flatMap((m) => [
      signRequest(m, key, now).bytes,
      signRequest(m, { ...key, algorithm: "hmac-sha1" }, now).bytes,
      signRequest(m, unknown, now).bytes,
      signRequest(m, key, now - 3600).bytes,
    ]);
}

let signedReplies = 0;

const RCODES = new Set([
  "NOERROR",
  "FORMERR",
  "NXDOMAIN",
  "NOTIMP",
  "REFUSED",
  "NOTAUTH",
  // Dynamic updates' (RFC 2136 §2.2).
  "YXDOMAIN",
  "YXRRSET",
  "NXRRSET",
  "NOTZONE",
]);

const seen = new Map<string, number>();

function check(reply: Uint8Array): string | null {
  let p;
  try {
    p = dnsPacket.decode(Buffer.from(reply));
  } catch (err) {
    return `does not decode: ${(err as Error).message}`;
  }
  if (decodedBytes() !== reply.length) return "trailing bytes";
  if (p.type !== "response") return "QR not set";
  seen.set(p.rcode, (seen.get(p.rcode) ?? 0) + 1);
  const opt = p.additionals.find((a) => a.type === "OPT") as { extendedRcode?: number } | undefined;
  const badvers = opt?.extendedRcode === 1 && p.rcode === "NOERROR";
  if (!RCODES.has(p.rcode) && !badvers) return `rcode ${p.rcode}`;
  if (p.rcode !== "FORMERR" && p.questions.length !== 1) {
    return `${p.rcode} with ${p.questions.length} questions`;
  }
  if (p.flag_tc && p.answers.length) return "TC with answers";
  if (p.additionals.some((a) => a.type === "TSIG")) signedReplies++;
  return null;
}

/** The fuzz zone, signed (Ed25519): queries with DO go through the signer and the denial code too. */
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
  await s.service.setDnssec("fuzz", "fuzz.test", { enable: true, algorithm: "ED25519" });
}

Deno.test("fuzz: 100,000 random and mutated packets; the server stays up and every reply is valid or FORMERR", async () => {
  const seed = fuzzSeed("fuzz over UDP");
  const logged: string[] = [];
  await using s = await startDnsStack({ log: createLogger("warn", (line) => logged.push(line)) });
  await populate(s);
  const seeds = corpus();
  seeds.push(...await signedSeeds(s, seeds));
  // Count what the server really handled, so kernel drops cannot hide untested packets.
  let handled = 0;
  const udp = s.responder.udp.bind(s.responder);
  s.responder.udp = (msg, ip) => {
    handled++;
    return udp(msg, ip);
  };
  const r = rng(seed);
  const sock = Deno.listenDatagram({ hostname: "127.0.0.1", port: 0, transport: "udp" });
  const target: Deno.NetAddr = { transport: "udp", hostname: "127.0.0.1", port: s.port };
  const failures: string[] = [];
  let replies = 0;
  let questions = 0;
  let receiving = true;
  const receiver = (async () => {
    while (receiving) {
      try {
        const [data] = await sock.receive();
        replies++;
        const bad = check(data);
        if (bad && failures.length < 20) {
          failures.push(`${bad}: ${Buffer.from(data).toString("hex")}`);
        }
      } catch {
        break;
      }
    }
  })();
  const started = Date.now();
  let sent = 0;
  try {
    while (sent < TOTAL && Date.now() - started < TIME_LIMIT_MS) {
      const batch: Promise<number>[] = [];
      for (let i = 0; i < WINDOW && sent < TOTAL; i++, sent++) {
        const packet = fuzzPacket(seeds, r);
        if (answerable(packet)) questions++;
        batch.push(sock.send(packet, target));
      }
      await Promise.all(batch);
      // Let the server drain the window (bounded) so the kernel does not drop it.
      const wait = Date.now() + 200;
      while (handled < sent && Date.now() < wait) await new Promise((res) => setTimeout(res, 0));
    }
    await new Promise((res) => setTimeout(res, 300));
  } finally {
    receiving = false;
    sock.close();
    await receiver;
  }
  console.log(
    `fuzz: sent ${sent}, handled ${handled}, with a question ${questions}, replies ${replies}, ${
      Date.now() - started
    } ms`,
  );
  assertEquals(sent, TOTAL, "sent every packet within the time limit");
  assert(handled >= TOTAL * 0.99, `the server handled only ${handled} packets`);
  assertEquals(failures, [], `seed ${seed}`);
  assertEquals(logged.filter((l) => l.includes("handler failed")), [], `seed ${seed}`);
  console.log(`fuzz: rcodes ${JSON.stringify(Object.fromEntries(seen))}`);
  assert(signedReplies > 0, "no reply carried a TSIG record");
  const all = ["NOERROR", "NXDOMAIN", "FORMERR", "REFUSED", "NOTIMP", "NOTAUTH"];
  for (const rcode of [...all, "YXRRSET", "NXRRSET", "NOTZONE"]) {
    assert((seen.get(rcode) ?? 0) > 0, `no ${rcode} among the replies`);
  }
  // Every packet with a readable question is answered; the rest (no question to echo) are not.
  assert(
    replies >= questions * 0.99 && replies <= questions,
    `${replies} replies to ${questions} questions`,
  );
  // Still up and answering.
  const probe = Deno.listenDatagram({ hostname: "127.0.0.1", port: 0, transport: "udp" });
  try {
    await probe.send(seeds[0], target);
    const [data] = await probe.receive();
    assertEquals(dnsPacket.decode(Buffer.from(data)).answers.length, 1);
  } finally {
    probe.close();
  }
});
