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

/** RFC 4034 §4.1.2: window blocks of the types present, each as long as its highest type needs. */
export function typeBitmap(types: Iterable<number>): Uint8Array {
  const sorted = [...new Set(types)].sort((a, b) => a - b);
  const blocks: number[] = [];
  for (let i = 0; i < sorted.length;) {
    const window = sorted[i] >> 8;
    const bits = new Uint8Array(32);
    let used = 0;
    for (; i < sorted.length && sorted[i] >> 8 === window; i++) {
      const low = sorted[i] & 255;
      bits[low >> 3] |= 0x80 >> (low & 7);
      used = (low >> 3) + 1;
    }
    blocks.push(window, used, ...bits.subarray(0, used));
  }
  return Uint8Array.from(blocks);
}

/** NSEC RDATA: the next owner name (uncompressed, RFC 4034 §4.1.1), then the bitmap. */
export function nsecRdata(next: string, types: Iterable<number>): Uint8Array {
  const name = nameWire(next);
  const bitmap = typeBitmap(types);
  const out = new Uint8Array(name.length + bitmap.length);
  out.set(name, 0);
  out.set(bitmap, name.length);
  return out;
}

/** The text form (lib/dns/names.ts) of a label list. */
export function labelsText(labels: readonly Uint8Array[]): string {
  return labels.map((l) => labelText(l)).join(".");
}

function wireLength(labels: readonly Uint8Array[]): number {
  let n = 1;
  for (const l of labels) n += l.length + 1;
  return n;
}

const MAX_NAME = 255;
const MAX_LABEL = 63;
const STAR = 0x2a;

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
