/**
 * Per-site counters, shared by the threads serving the attestation listener
 * like the service's own (lib/attest/metrics.ts): a Float64Array of rows
 * (one per thread, one writer each, no atomics) × SITE_SLOTS sites × fields.
 * A site's slot is fixed in its row of the store (`counter_slot`), so every
 * thread counts a site into the same cells. Counting is an index and an add:
 * nothing allocated on the heartbeat path.
 */
import { REJECT_REASONS, type RejectReason } from "../metrics.ts";

/** Sites counted one by one; a site created past this many has no slot and is counted only in the totals. */
export const SITE_SLOTS = 64;

const FIELDS = ["sessionsCreated", "initRefused", "accepted", ...REJECT_REASONS] as const;
export type SiteField = typeof FIELDS[number];
const INDEX: Record<string, number> = Object.fromEntries(FIELDS.map((f, i) => [f, i]));
const WIDTH = FIELDS.length;

export interface SiteCounterTable {
  buffer: SharedArrayBuffer;
  rows: number;
}

export function createSiteCounterTable(rows: number): SiteCounterTable {
  return { buffer: new SharedArrayBuffer(rows * SITE_SLOTS * WIDTH * 8), rows };
}

/** One site's figures. */
export interface SiteFigures {
  sessionsCreated: number;
  initRefused: number;
  accepted: number;
  rejected: Map<RejectReason, number>;
  rejectedTotal: number;
}

export class SiteCounters {
  readonly #cells: Float64Array;
  readonly #rows: number;
  readonly #base: number;

  constructor(readonly table: SiteCounterTable, row = 0) {
    if (!(row >= 0 && row < table.rows)) throw new RangeError(`No counter row ${row}`);
    this.#cells = new Float64Array(table.buffer);
    this.#rows = table.rows;
    this.#base = row * SITE_SLOTS * WIDTH;
  }

  /** Adds one to a site's field; a negative slot (no site, or a site without one) counts nothing. */
  add(slot: number, field: SiteField): void {
    if (slot >= 0) this.#cells[this.#base + slot * WIDTH + INDEX[field]]++;
  }

  /** Zeroes a slot in every row: for a slot given to a new site. */
  clear(slot: number): void {
    for (let r = 0; r < this.#rows; r++) {
      const at = (r * SITE_SLOTS + slot) * WIDTH;
      this.#cells.fill(0, at, at + WIDTH);
    }
  }

  #sum(slot: number, field: SiteField): number {
    let n = 0;
    for (let r = 0; r < this.#rows; r++) {
      n += this.#cells[(r * SITE_SLOTS + slot) * WIDTH + INDEX[field]];
    }
    return n;
  }

  figures(slot: number | null): SiteFigures {
    const rejected = new Map<RejectReason, number>();
    let rejectedTotal = 0;
    for (const r of REJECT_REASONS) {
      const n = slot === null ? 0 : this.#sum(slot, r);
      rejected.set(r, n);
      rejectedTotal += n;
    }
    const get = (f: SiteField) => slot === null ? 0 : this.#sum(slot, f);
    return {
      sessionsCreated: get("sessionsCreated"),
      initRefused: get("initRefused"),
      accepted: get("accepted"),
      rejected,
      rejectedTotal,
    };
  }
}
