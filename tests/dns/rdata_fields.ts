/**
 * Building blocks of the RDATA arbitraries (rdata_arbitraries.ts): names,
 * integers, hex and character-strings, each generated with the canonical form
 * docs/dns.md gives it and written the ways a user may write it.
 */
import { Buffer } from "node:buffer";
import fc from "fast-check";

/** The origin of zone-file cases. */
export const ORIGIN = "prop.test";

/** Presentation of bytes as docs/dns.md gives it: quoted, `"` and `\` escaped, non-printables \DDD. */
export function quoted(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) {
    if (b === 0x22 || b === 0x5c) s += "\\" + String.fromCharCode(b);
    else if (b >= 0x20 && b < 0x7f) s += String.fromCharCode(b);
    else s += "\\" + String(b).padStart(3, "0");
  }
  return `"${s}"`;
}

/** A way of writing `bytes` inside quotes: each byte literal where it can be, or escaped either way. */
export function written(bytes: Uint8Array): fc.Arbitrary<string> {
  return fc.array(fc.nat(2), { minLength: bytes.length, maxLength: bytes.length }).map((how) =>
    [...bytes].map((b, i) => {
      const plain = b >= 0x20 && b < 0x7f && b !== 0x22 && b !== 0x5c;
      if (plain && how[i] === 0) return String.fromCharCode(b);
      if (how[i] === 1 && b >= 0x21 && b < 0x7f && !/[0-9]/.test(String.fromCharCode(b))) {
        return "\\" + String.fromCharCode(b);
      }
      return "\\" + String(b).padStart(3, "0");
    }).join("")
  ).map((s) => `"${s}"`);
}

export const lower = "abcdefghijklmnopqrstuvwxyz";
// "xn--" labels must be punycode (docs/dns.md, Names): generated names leave them out.
const label = (extra: string, max: number) =>
  fc.string({
    unit: fc.constantFrom(...lower + "0123456789" + extra),
    minLength: 1,
    maxLength: max,
  })
    .filter((l) => !l.startsWith("xn--"));
const topLabel = fc.tuple(
  fc.constantFrom(...lower),
  fc.string({ unit: fc.constantFrom(...lower + "0123456789-"), maxLength: 8 }),
).map(([a, b]) => a + b).filter((l) => !l.startsWith("xn--"));

/** A host name of the DNS name rules (lowercase, no trailing dot); "/" below the top when `slash`. */
export function hostName(slash: boolean, room = 253): fc.Arbitrary<string> {
  return fc.tuple(
    fc.array(
      fc.oneof({ weight: 5, arbitrary: label("-_" + (slash ? "/" : ""), 12) }, label("-_", 63)),
      { maxLength: 4 },
    ),
    topLabel,
  ).map(([ls, top]) => [...ls, top].join(".")).filter((n) => n.length <= room);
}

/** A name inside a value: the canonical (absolute, lowercase, trailing dot) and how it is written. */
export function nameField(origin: string | null, root = true) {
  const room = 253 - (ORIGIN.length + 1);
  // Without a trailing dot a name is absolute through the API and relative to the origin in a file.
  const named = fc.tuple(hostName(true, room), fc.boolean()).chain(([n, dot]) =>
    fc.mixedCase(fc.constant(n)).map((typed) => ({
      text: dot ? `${typed}.` : typed,
      abs: origin !== null && !dot ? `${n}.${origin}` : n,
    }))
  );
  const arbs = [{ weight: 9, arbitrary: named }];
  if (root) arbs.push({ weight: 1, arbitrary: fc.constant({ text: ".", abs: "" }) });
  if (origin !== null) arbs.push({ weight: 1, arbitrary: fc.constant({ text: "@", abs: origin }) });
  return fc.oneof(...arbs).map(({ text, abs }) => ({
    text,
    canonical: abs === "" ? "." : `${abs}.`,
    /** As dns-packet decodes it. */
    wire: abs === "" ? "." : abs,
  }));
}

/** An integer written with up to two leading zeros. */
export function int(min: number, max: number) {
  return fc.tuple(fc.integer({ min, max }), fc.nat(2)).map(([n, z]) => ({
    n,
    text: "0".repeat(z) + n,
  }));
}

/** `len` bytes (a range when `len` is null), written as hex in any case, maybe split by spaces. */
export function hexField(len: { min: number; max: number }) {
  return fc.uint8Array({ minLength: len.min, maxLength: len.max }).chain((bytes) => {
    const hex = Buffer.from(bytes).toString("hex");
    return fc.tuple(fc.mixedCase(fc.constant(hex)), fc.array(fc.nat(hex.length), { maxLength: 2 }))
      .map(([typed, cuts]) => {
        const at = [...new Set(cuts.map((c) => c - (c % 2)))].filter((c) => c > 0).sort((a, b) =>
          a - b
        );
        let text = "";
        let last = 0;
        for (const c of at) {
          text += typed.slice(last, c) + " ";
          last = c;
        }
        return { bytes, text: text + typed.slice(last), canonical: hex.toUpperCase() };
      });
  });
}

export const originArb = fc.constantFrom<string | null>(null, ORIGIN);

/** RFC 5952 text of eight groups: the longest run of two or more zero groups (first on a tie) as "::". */
export function rfc5952(g: number[]): string {
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
  }
  const hex = (xs: number[]) => xs.map((x) => x.toString(16)).join(":");
  if (best < 0) return hex(g);
  return `${hex(g.slice(0, best))}::${hex(g.slice(best + bestLen))}`;
}
