/**
 * NAPTR (RFC 3403 §4.1): order, preference, flags, services, a substitution
 * expression and a replacement name. BIND checks the substitution expression
 * on the wire too, and dig answers FORMERR for a message holding one it
 * refuses, so the same checks run here.
 */
import { fqdn } from "./names.ts";
import type { Rdata } from "./rdata.ts";
import { concat, type Parser, wireOf, type WireReader } from "./rdata_parser.ts";
import { quoteBytes } from "./tokens.ts";

const BACKSLASH = 0x5c;

export function parseNaptr(p: Parser): Rdata {
  const order = p.int("order", 65535);
  const preference = p.int("preference", 65535);
  const flags = p.bytes("flags");
  // RFC 3403 §4.1: flags are single characters from A-Z and 0-9 (either case).
  if (!flags.every(isAlnum)) p.fail(`flags ${quoteBytes(flags)} may hold only letters and digits`);
  const services = p.bytes("services");
  const regexp = p.bytes("regexp");
  const why = regexpProblem(regexp);
  if (why) p.fail(`regexp ${quoteBytes(regexp)} ${why}`);
  const target = p.name("replacement");
  // RFC 3403 §4.1: "The fields are also mutually exclusive."
  if (regexp.length > 0 && target !== "") {
    p.fail('give either a regexp or a replacement, not both (the other is "" or ".")');
  }
  const strs = [flags, services, regexp];
  const head = new Uint8Array([order >> 8, order & 255, preference >> 8, preference & 255]);
  const parts: Uint8Array[] = [head];
  for (const s of strs) parts.push(new Uint8Array([s.length]), s);
  parts.push(wireOf("NS", fqdn(target)));
  return {
    value: `${order} ${preference} ${strs.map(quoteBytes).join(" ")} ${fqdn(target)}`,
    wire: concat(parts),
  };
}

/** Presentation of NAPTR RDATA read from the wire. */
export function naptrText(r: WireReader): string {
  const head = `${r.u16("order")} ${r.u16("preference")}`;
  const strs = ["flags", "services", "regexp"].map((s) => quoteBytes(r.charString(s)));
  return `${head} ${strs.join(" ")} ${r.name("replacement")}`;
}

function isAlnum(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a);
}

/**
 * Why `re` is not a substitution expression `<d>ere<d>repl<d>[i]` of RFC 3402
 * §3.2 as BIND reads it, or null: the delimiter is no digit, backslash, "i" or
 * NUL; exactly three delimiters; only "i" after the last; no NUL; back
 * references \1–\9 in the replacement, never more than the groups of the ERE.
 */
export function regexpProblem(re: Uint8Array): string | null {
  if (re.length === 0) return null;
  const delim = re[0];
  if ((delim >= 0x30 && delim <= 0x39) || delim === BACKSLASH || delim === 0x69 || delim === 0) {
    return `cannot use "${String.fromCharCode(delim)}" as its delimiter`;
  }
  const ere: number[] = [];
  let part = 0; // 0: the ERE, 1: the replacement, 2: the flags
  let maxRef = 0;
  for (let i = 1; i < re.length; i++) {
    const c = re[i];
    if (c === 0) return "contains a NUL byte";
    if (c === delim) {
      if (part === 2) return "has more than three delimiters";
      part++;
      continue;
    }
    if (part === 2) {
      if (c !== 0x69) return `has the flag "${String.fromCharCode(c)}"; only "i" is defined`;
      continue;
    }
    if (part === 0) ere.push(c);
    if (c !== BACKSLASH) continue;
    const next = re[++i];
    if (next === undefined || next === 0) return "ends inside an escape";
    if (part === 0) ere.push(next);
    else if (next === 0x30) return 'refers to "\\0"';
    else if (next > 0x30 && next <= 0x39) maxRef = Math.max(maxRef, next - 0x30);
  }
  if (part !== 2) return "does not end with its delimiter";
  const groups = ereGroups(ere);
  if (groups === null) return "has unbalanced parentheses or brackets";
  if (maxRef > groups) return `refers to group ${maxRef} but has ${groups}`;
  return null;
}

/** The number of groups of a POSIX ERE, or null when its parentheses or brackets do not balance. */
function ereGroups(ere: number[]): number | null {
  let groups = 0;
  let depth = 0;
  for (let i = 0; i < ere.length; i++) {
    const c = ere[i];
    if (c === BACKSLASH) {
      i++;
    } else if (c === 0x5b) { // "[": skip the bracket expression; "]" first is literal.
      let j = i + 1;
      if (ere[j] === 0x5e) j++;
      if (ere[j] === 0x5d) j++;
      while (j < ere.length && ere[j] !== 0x5d) j++;
      if (j >= ere.length) return null;
      i = j;
    } else if (c === 0x28) {
      groups++;
      depth++;
    } else if (c === 0x29) {
      if (--depth < 0) return null;
    }
  }
  return depth === 0 ? groups : null;
}
