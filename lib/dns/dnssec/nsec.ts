/**
 * NSEC building blocks: the type bitmap (RFC 4034 §4.1.2), the RDATA, and
 * the "epsilon" functions of minimally covering NSEC records (RFC 4470 §2,
 * RFC 4471): names just before and just after a name in canonical order.
 *
 * Names here are label lists, leftmost first, bytes lowercase. Canonical
 * order folds A–Z into a–z, so those bytes never occur: stepping a byte down
 * from "[" gives "@", and up from "@" gives "[" (as Knot's onlinesign does).
 */
import { nameWire } from "../encode.ts";
import { labelText } from "../names.ts";

export const T_NSEC = 47;
const STAR = 0x2a;

/** RFC 4034 §4.1.2: window blocks of the types present, each as long as its highest type needs. */
export function typeBitmap(types: Iterable<number>): Uint8Array {
  const sorted = Array.from(new Set(types)).sort((a, b) => a - b);
  let size = 0;
  for (let i = 0; i < sorted.length; i++) {
    const last = i + 1 === sorted.length || sorted[i + 1] >> 8 !== sorted[i] >> 8;
    if (last) size += 2 + ((sorted[i] & 255) >> 3) + 1;
  }
  const out = new Uint8Array(size);
  let head = -1;
  let window = -1;
  for (const t of sorted) {
    if (t >> 8 !== window) {
      // Types ascend, so the previous block's length byte is final.
      head = head < 0 ? 0 : head + 2 + out[head + 1];
      window = t >> 8;
      out[head] = window;
    }
    const low = t & 255;
    out[head + 1] = (low >> 3) + 1;
    out[head + 2 + (low >> 3)] |= 0x80 >> (low & 7);
  }
  return out;
}

/** The wire form of a label list. */
export function labelsWire(labels: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(wireLength(labels));
  let o = 0;
  for (const l of labels) {
    out[o] = l.length;
    out.set(l, o + 1);
    o += 1 + l.length;
  }
  return out;
}

/**
 * NSEC RDATA: the next owner name (uncompressed, RFC 4034 §4.1.1), then the
 * bitmap. The next name as text or, saving a parse, as labels.
 */
export function nsecRdata(
  next: string | readonly Uint8Array[],
  types: Iterable<number>,
): Uint8Array {
  const name = typeof next === "string" ? nameWire(next) : labelsWire(next);
  const bitmap = typeBitmap(types);
  const out = new Uint8Array(name.length + bitmap.length);
  out.set(name, 0);
  out.set(bitmap, name.length);
  return out;
}

/** Each byte as labelText (lib/dns/names.ts) writes it inside a label, for names made here byte by byte. */
const PIECES = Array.from({ length: 256 }, (_, b) => b === 0x2a ? "\\042" : labelText([b]));

/** The text form (lib/dns/names.ts, labelText) of a label list. */
export function labelsText(labels: readonly Uint8Array[]): string {
  let out = "";
  for (let i = 0; i < labels.length; i++) {
    const l = labels[i];
    if (i > 0) out += ".";
    if (l.length === 1 && l[0] === STAR) out += "*";
    else for (let j = 0; j < l.length; j++) out += PIECES[l[j]];
  }
  return out;
}

function wireLength(labels: readonly Uint8Array[]): number {
  let n = 1;
  for (const l of labels) n += l.length + 1;
  return n;
}

const MAX_NAME = 255;
const MAX_LABEL = 63;

function down(b: number): number {
  const r = b - 1;
  return r >= 0x41 && r <= 0x5a ? 0x40 : r;
}

function up(b: number): number {
  const r = b + 1;
  return r >= 0x41 && r <= 0x5a ? 0x5b : r;
}

function isStar(l: Uint8Array): boolean {
  return l.length === 1 && l[0] === STAR;
}

/**
 * A name just before `labels` in canonical order and inside the zone of
 * `apexLength` labels (RFC 4470 §2's example): the leftmost label's last
 * byte stepped down and the label filled with \255 up to 63 bytes (or what
 * the 255-byte name limit leaves). Nothing but names below the result can
 * sort between it and `labels`; the denial code still checks the zone's
 * real names, since such names may exist. A label ending in \000 loses that
 * byte instead (its parent, if that was all, comes out of the recursion).
 * Never a wildcard name: an NSEC owned by "*.x" would claim a wildcard.
 */
export function predecessor(labels: readonly Uint8Array[], apexLength: number): Uint8Array[] {
  if (labels.length <= apexLength) return labels.slice();
  const first = labels[0];
  const rest = labels.slice(1);
  const last = first[first.length - 1];
  let label: Uint8Array;
  if (last === 0) {
    if (first.length === 1) return predecessor(rest, apexLength);
    label = first.slice(0, -1);
  } else {
    const room = Math.min(MAX_LABEL - first.length, MAX_NAME - wireLength(labels));
    label = new Uint8Array(first.length + room).fill(0xff);
    label.set(first.subarray(0, -1), 0);
    label[first.length - 1] = down(last);
  }
  const name = [label, ...rest];
  return isStar(label) ? predecessor(name, apexLength) : name;
}

/**
 * The name just after all of `labels`'s subtree: the leftmost label with a
 * \000 appended, or, with no room, its last byte below \255 stepped up and
 * the bytes after it dropped; a label of only \255 bytes passes the step to
 * its parent. Null when nothing in the zone can follow (the chain wraps to
 * the apex).
 */
export function afterSubtree(
  labels: readonly Uint8Array[],
  apexLength: number,
): Uint8Array[] | null {
  for (let i = 0; i < labels.length - apexLength; i++) {
    const first = labels[i];
    const rest = labels.slice(i + 1);
    if (first.length < MAX_LABEL && wireLength(labels.slice(i)) < MAX_NAME) {
      const label = new Uint8Array(first.length + 1);
      label.set(first, 0);
      return [label, ...rest];
    }
    let j = first.length - 1;
    while (j >= 0 && first[j] === 0xff) j--;
    if (j >= 0) {
      const label = first.slice(0, j + 1);
      label[j] = up(label[j]);
      return [label, ...rest];
    }
  }
  return null;
}

/**
 * The name just after `labels` (RFC 4471 §3.1.2): a \000 label prepended,
 * the first name below it; without room for one, the name after its subtree.
 * Null when the chain wraps to the apex.
 */
export function successor(
  labels: readonly Uint8Array[],
  apexLength: number,
): Uint8Array[] | null {
  if (wireLength(labels) + 2 <= MAX_NAME) return [new Uint8Array(1), ...labels];
  return afterSubtree(labels, apexLength);
}
