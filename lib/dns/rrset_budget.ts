/**
 * How large an RRset may grow: its answer must fit one DNS message over TCP
 * (65 535 bytes, RFC 1035 §4.2.2), or the server can only answer it with TC
 * and no data. A change that would take an RRset past that is refused (422)
 * when it is made, not discovered when a resolver asks.
 *
 * The size is kept cheap to check: the store's count and value bytes bound an
 * RRset's wire size from above (no record takes more than 16 bytes of RDATA
 * beyond the length of its canonical text), and only an RRset near the limit
 * is parsed record by record. Within one batch or import the running size of
 * each RRset is remembered, so adding n records costs O(n), not O(n²).
 */
import { UnprocessableError } from "../errors.ts";
import { parseRdata } from "./rdata.ts";
import type { RecordRepo } from "./record_repo.ts";

const TCP_MESSAGE = 65_535;
const HEADER = 12;
/** The longest question: a 255-byte name, type and class. */
const QUESTION = 255 + 4;
/** Our OPT record (RFC 6891), when the query had one. */
const OPT = 11;
/** A positive answer carries the apex NS RRset in authority: up to 16 names of 255 bytes. */
const AUTHORITY = 16 * (2 + 10 + 255);

/** The bytes an RRset's records may take in an answer, so the whole message fits over TCP. */
export const RRSET_BUDGET = TCP_MESSAGE - HEADER - QUESTION - OPT - AUTHORITY;

/** Bytes a record takes in an answer: owner (a pointer to the question), type, class, TTL, RDLENGTH, RDATA. */
export function answerBytes(rdlen: number): number {
  return 2 + 10 + rdlen;
}

/** RDATA sizes that do not depend on the value. */
const FIXED_RDATA: Record<string, number> = { A: 4, AAAA: 16 };
/** No canonical value is shorter than its RDATA by more than this (AAAA "::" is 2 characters, 16 bytes). */
const MAX_EXCESS = 16;

interface Size {
  bytes: number;
  /** False when `bytes` is only the upper bound from the value lengths. */
  exact: boolean;
}

/** The running sizes of the RRsets one change touches, in one zone. */
export class RRsetBudget {
  readonly #sizes = new Map<string, Size>();

  constructor(private readonly records: RecordRepo, private readonly zone: string) {}

  /**
   * Counts a record of `rdlen` bytes into the RRset `name type` (in place of
   * record `replacing`, when it is an update); throws UnprocessableError on
   * field "value" when the RRset would no longer fit one message.
   */
  async add(name: string, type: string, rdlen: number, replacing?: string): Promise<void> {
    const key = `${name}\u0000${type}`;
    let size = (replacing === undefined ? this.#sizes.get(key) : undefined) ??
      await this.#bound(name, type, replacing);
    let next = size.bytes + answerBytes(rdlen);
    if (next > RRSET_BUDGET && !size.exact) {
      size = await this.#exact(name, type, replacing);
      next = size.bytes + answerBytes(rdlen);
    }
    if (next > RRSET_BUDGET) {
      throw new UnprocessableError(
        `The ${type} records of "${name}" would take ${next} bytes in an answer, more than the ${RRSET_BUDGET} that fit in one DNS message over TCP`,
        "value",
      );
    }
    this.#sizes.set(key, { bytes: next, exact: size.exact });
  }

  /** Drops what is known of the RRset `name type` after one of its records was removed. */
  forget(name: string, type: string): void {
    this.#sizes.delete(`${name}\u0000${type}`);
  }

  async #bound(name: string, type: string, except?: string): Promise<Size> {
    const { count, bytes } = await this.records.rrsetStats(this.zone, name, type, except);
    const fixed = FIXED_RDATA[type];
    if (fixed !== undefined) return { bytes: count * answerBytes(fixed), exact: true };
    return { bytes: count * answerBytes(MAX_EXCESS) + bytes, exact: false };
  }

  async #exact(name: string, type: string, except?: string): Promise<Size> {
    let bytes = 0;
    for (const value of await this.records.rrsetValues(this.zone, name, type, except)) {
      bytes += answerBytes(storedRdataLength(type, value));
    }
    return { bytes, exact: true };
  }
}

/** RDATA bytes of a stored value; 0 for one that no longer parses, which answers leave out. */
function storedRdataLength(type: string, value: string): number {
  try {
    return parseRdata(type, value, null).wire.length;
  } catch {
    return 0;
  }
}
