/**
 * Per-site token counters, shared by the threads serving the attestation
 * listener like the per-site heartbeat counters (lib/attest/sites/site_counters.ts):
 * a Float64Array of rows (one per thread, one writer each) × the site slots
 * plus one for requests no site could be told for (a wrong secret) × fields.
 * A slot passes to a new site when its site is deleted; each slot remembers
 * a hash of the site it counts for, and the first count for another site
 * zeroes it, so a new site never shows a deleted one's figures. Nothing
 * here is on the heartbeat path.
 */
import { SITE_SLOTS } from "../sites/site_counters.ts";
import type { SiteEntry } from "../sites/site_directory.ts";

export const SITEVERIFY_ERRORS = [
  "missing-input-secret",
  "invalid-input-secret",
  "missing-input-response",
  "invalid-input-response",
  "timeout-or-duplicate",
  "internal-error",
] as const;
export type SiteverifyError = typeof SITEVERIFY_ERRORS[number];

const FIELDS = ["issued", "refused", "verified", "reused", ...SITEVERIFY_ERRORS] as const;
type TokenField = typeof FIELDS[number];
const INDEX: Record<string, number> = Object.fromEntries(FIELDS.map((f, i) => [f, i]));
const WIDTH = FIELDS.length;
/** The slot of failures no site could be told for. */
const NO_SITE = SITE_SLOTS;
const SLOTS = SITE_SLOTS + 1;

export interface TokenCounterTable {
  buffer: SharedArrayBuffer;
  /** Int32Array[SLOTS]: a hash of the site each slot counts for, 0 for none yet. */
  owners: SharedArrayBuffer;
  rows: number;
}

export function createTokenCounterTable(rows: number): TokenCounterTable {
  return {
    buffer: new SharedArrayBuffer(rows * SLOTS * WIDTH * 8),
    owners: new SharedArrayBuffer(SLOTS * 4),
    rows,
  };
}

/** A non-zero 32-bit hash (FNV-1a) of a site id. */
function ownerHash(siteId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < siteId.length; i++) h = Math.imul(h ^ siteId.charCodeAt(i), 0x01000193);
  return h | 1;
}

export class TokenCounters {
  readonly #cells: Float64Array;
  readonly #owners: Int32Array;
  readonly #rows: number;
  readonly #base: number;

  constructor(readonly table: TokenCounterTable, row = 0) {
    if (!(row >= 0 && row < table.rows)) throw new RangeError(`No counter row ${row}`);
    this.#cells = new Float64Array(table.buffer);
    this.#owners = new Int32Array(table.owners);
    this.#rows = table.rows;
    this.#base = row * SLOTS * WIDTH;
  }

  /** Adds one to a site's field; a negative slot (or no site id) counts as no site. */
  add(slot: number, field: TokenField, siteId: string | null = null): void {
    let s = NO_SITE;
    if (slot >= 0 && slot < SITE_SLOTS && siteId !== null) {
      const h = ownerHash(siteId);
      if (Atomics.load(this.#owners, slot) !== h) {
        this.clear(slot);
        Atomics.store(this.#owners, slot, h);
      }
      s = slot;
    }
    this.#cells[this.#base + s * WIDTH + INDEX[field]]++;
  }

  /** Zeroes a slot in every row: for a slot given to a new site. */
  clear(slot: number): void {
    for (let r = 0; r < this.#rows; r++) {
      const at = (r * SLOTS + slot) * WIDTH;
      this.#cells.fill(0, at, at + WIDTH);
    }
  }

  /** A site's figure (0 while its slot still counts for a deleted site); `siteId` null for no site. */
  get(slot: number, field: TokenField, siteId: string | null = null): number {
    if (siteId !== null && Atomics.load(this.#owners, slot) !== ownerHash(siteId)) return 0;
    let n = 0;
    for (let r = 0; r < this.#rows; r++) {
      n += this.#cells[(r * SLOTS + slot) * WIDTH + INDEX[field]];
    }
    return n;
  }
}

function family(name: string, help: string, samples: string[]): string[] {
  return [`# HELP ${name} ${help}`, `# TYPE ${name} counter`, ...samples];
}

/** Lines for every site with a counter slot, and the failures of no site; "" without sites. */
export function renderTokenMetrics(sites: readonly SiteEntry[], c: TokenCounters): string {
  const counted = sites.filter((s) => s.slot >= 0 && s.slot < SITE_SLOTS);
  const unattributed = SITEVERIFY_ERRORS.map((e) => [e, c.get(NO_SITE, e)] as const)
    .filter(([, n]) => n > 0);
  if (counted.length === 0 && unattributed.length === 0) return "";
  const simple = (name: string, help: string, field: TokenField) =>
    family(
      name,
      help,
      counted.map((s) => `${name}{site="${s.site_key}"} ${c.get(s.slot, field, s.id)}`),
    );
  const failed = "attest_site_siteverify_failed_total";
  return [
    ...simple("attest_site_tokens_issued_total", "Tokens issued by POST /token.", "issued"),
    ...simple(
      "attest_site_tokens_refused_total",
      "Token requests POST /token refused (chain too short, bad signature, wrong origin, …).",
      "refused",
    ),
    ...simple(
      "attest_site_tokens_verified_total",
      "Tokens siteverify accepted (success true).",
      "verified",
    ),
    ...simple(
      "attest_site_tokens_reused_total",
      "Siteverify requests for a token already verified (timeout-or-duplicate).",
      "reused",
    ),
    ...family(
      failed,
      'Siteverify failures by error code; site="" when the secret named no site.',
      [
        ...counted.flatMap((s) =>
          SITEVERIFY_ERRORS.map((e) =>
            `${failed}{site="${s.site_key}",error="${e}"} ${c.get(s.slot, e, s.id)}`
          )
        ),
        ...unattributed.map(([e, n]) => `${failed}{site="",error="${e}"} ${n}`),
      ],
    ),
  ].join("\n") + "\n";
}

/** One site's token figures since start, for the dashboard. */
export interface TokenFigures {
  issued: number;
  refused: number;
  verified: number;
  reused: number;
  /** Siteverify failures by error code (a reuse counts here as timeout-or-duplicate too). */
  failed: Record<SiteverifyError, number>;
  failedTotal: number;
}

/** A site's token figures; zeros for a site without a slot. */
export function tokenFigures(
  c: Pick<TokenCounters, "get">,
  slot: number | null,
  siteId: string,
): TokenFigures {
  const get = (f: TokenField) => slot === null || slot >= SITE_SLOTS ? 0 : c.get(slot, f, siteId);
  const failed = Object.fromEntries(SITEVERIFY_ERRORS.map((e) => [e, get(e)])) as Record<
    SiteverifyError,
    number
  >;
  return {
    issued: get("issued"),
    refused: get("refused"),
    verified: get("verified"),
    reused: get("reused"),
    failed,
    failedTotal: SITEVERIFY_ERRORS.reduce((n, e) => n + failed[e], 0),
  };
}
