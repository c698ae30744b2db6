/**
 * The DNS fuzz tests' packets: a seeded generator, a corpus of valid
 * queries, and mutations aimed at a parser's weak spots (byte flips,
 * truncation, bad label lengths, compression loops, huge counts).
 */
import { Buffer } from "node:buffer";
import { dnsPacket } from "../../lib/dns/packet.ts";

/**
 * The run's seed, printed: fixed per test by default, so that a run of the
 * suite is repeatable and CI cannot turn red by chance; PALISADE_FUZZ_SEED
 * sets one (to replay a failure), and PALISADE_FUZZ_SEED=random draws a new
 * one each run to explore.
 */
export function fuzzSeed(name: string): number {
  const given = Deno.env.get("PALISADE_FUZZ_SEED");
  const seed = given === "random"
    ? crypto.getRandomValues(new Uint32Array(1))[0]
    : given
    ? Number(given) >>> 0
    : fixedSeed(name);
  console.log(`${name}: seed ${seed} (replay with PALISADE_FUZZ_SEED=${seed})`);
  return seed;
}

/** A seed of its own for each test name (FNV-1a of the name). */
function fixedSeed(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** xorshift32: deterministic, fast, good enough to pick bytes. */
export function rng(seed: number): (n: number) => number {
  let x = seed >>> 0 || 1;
  return (n: number) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % n;
  };
}

/** Valid queries of every kind the responder tells apart. */
export function corpus(zone = "fuzz.test"): Uint8Array[] {
  const q = (name: string, type: string, extra: Record<string, unknown> = {}) =>
    new Uint8Array(
      dnsPacket.encode({
        type: "query",
        id: 7,
        questions: [{ name, type, class: "IN" }],
        ...extra,
      }),
    );
  const opt = (flags = 0) => ({
    additionals: [{ name: ".", type: "OPT", udpPayloadSize: 4096, flags, options: [] }],
  });
  return [
    q(`www.${zone}`, "A"),
    q(`WWW.${zone.toUpperCase()}`, "AAAA", opt()),
    q(`alias.${zone}`, "A", opt(dnsPacket.DNSSEC_OK)),
    q(`x.wild.${zone}`, "TXT", opt()),
    q(`nope.${zone}`, "MX"),
    q(`host.sub.${zone}`, "A"),
    q(zone, "ANY"),
    q(zone, "SOA"),
    q(zone, "AXFR"),
    q(`big.${zone}`, "TXT", opt()),
    q("example.org", "A"),
  ];
}

/** A name whose compression pointer points at itself, or at a pointer pointing back. */
function compressionLoop(id: number, twoStep: boolean): Uint8Array {
  const header = [id >> 8, id & 255, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0];
  const name = twoStep ? [0xc0, 14, 0xc0, 12] : [0xc0, 12];
  return new Uint8Array([...header, ...name, 0, 1, 0, 1]);
}

/** One to four random mutations of `base`. */
export function mutate(base: Uint8Array, r: (n: number) => number): Uint8Array {
  let b = new Uint8Array(base);
  const n = 1 + r(4);
  for (let i = 0; i < n; i++) {
    switch (r(9)) {
      case 0: // flip a bit
        if (b.length) b[r(b.length)] ^= 1 << r(8);
        break;
      case 1: // set a byte
        if (b.length) b[r(b.length)] = r(256);
        break;
      case 2: // truncate
        b = b.subarray(0, r(b.length + 1));
        break;
      case 3: { // append junk
        const extra = new Uint8Array(1 + r(32)).map(() => r(256));
        b = new Uint8Array([...b, ...extra]);
        break;
      }
      case 4: // a small count
        if (b.length >= 12) b[4 + r(8)] = r(4);
        break;
      case 5: // a huge count
        if (b.length >= 12) b[4 + 2 * r(4)] = 0xff;
        break;
      case 6: // a label length past the name, or a reserved label type
        if (b.length > 12) b[12] = [63, 64, 0x80, 0xff, b.length][r(5)] & 0xff;
        break;
      case 7: // a compression pointer anywhere
        if (b.length > 14) {
          const at = 12 + r(b.length - 13);
          b[at] = 0xc0 | r(64);
          b[at + 1] = r(256);
        }
        break;
      default: // a header flag byte
        if (b.length >= 4) b[2 + r(2)] = r(256);
    }
  }
  return b;
}

/** A packet of the run: random bytes, a valid query, a compression loop, or a mutated query. */
export function fuzzPacket(seeds: Uint8Array[], r: (n: number) => number): Uint8Array {
  const kind = r(20);
  if (kind < 3) return new Uint8Array(r(600)).map(() => r(256));
  if (kind < 5) return seeds[r(seeds.length)];
  if (kind < 6) return compressionLoop(r(65536), r(2) === 1);
  return mutate(seeds[r(seeds.length)], r);
}

/** Why a reply is not an acceptable answer, or null when it is. */
export function badReply(reply: Uint8Array): string | null {
  let p;
  try {
    p = dnsPacket.decode(Buffer.from(reply));
  } catch (err) {
    return `does not decode: ${(err as Error).message}`;
  }
  if (p.type !== "response") return "QR not set";
  if (p.flag_tc && p.answers.length) return "TC with answers";
  return null;
}

/**
 * Whether `msg` asks something a server can answer: a query (QR clear) of 12
 * bytes or more with QDCOUNT 1 and a question that reads to its end (labels
 * of 1-63 bytes, no pointer, a name of at most 255 bytes, QTYPE and QCLASS
 * present). Written from RFC 1035 §4.1, apart from the server's reader: the
 * rest gets no reply, as from Knot.
 */
export function answerable(msg: Uint8Array): boolean {
  if (msg.length < 12 || (msg[2] & 0x80) !== 0 || msg[4] !== 0 || msg[5] !== 1) return false;
  let o = 12;
  let nameBytes = 1;
  while (o < msg.length && msg[o] !== 0) {
    const len = msg[o];
    nameBytes += len + 1;
    if (len > 63 || nameBytes > 255) return false;
    o += len + 1;
  }
  return o + 5 <= msg.length;
}
