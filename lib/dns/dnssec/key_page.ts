/**
 * The pages of a zone's key list in its DNSSEC status (docs/api.md,
 * "Pagination"). The status is one object with several lists, so its query
 * and response fields carry a `keys_` prefix: `keys_limit`, `keys_cursor`,
 * `keys_offset` in, `keys_total` and `keys_next_cursor` out.
 *
 * A zone holds a handful of keys (the signing pair, a key in rollover, the
 * last removed one of each type, kept keys of another algorithm), so a page
 * is cut from the rows the status reads anyway. Paged, keys go oldest first
 * by (created_at, id), both fixed when the key is made: a key changing state
 * during a walk does not move. Unpaged, the list keeps its order (live keys
 * first, KSK before ZSK, by activation).
 */
import {
  type PageInfo,
  type PageKey,
  type PageRequest,
  pageRequested,
  paginate,
} from "../../paging.ts";
import type { DnssecKeyRow } from "./key_repo.ts";

/** The `keys_` query fields as a page request. */
export interface KeyPageQuery {
  keys_limit?: number;
  keys_cursor?: string;
  keys_offset?: number;
}

/** The fields the status adds about its key list. */
export interface KeyPageInfo {
  keys_total: number;
  keys_next_cursor: string | null;
}

function compare(a: PageKey, b: PageKey): number {
  if (a[0] !== b[0]) return (a[0] as number) - (b[0] as number);
  return a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
}

/** The page of `rows` (the zone's whole key list) that `query` asks for. */
export function keyPage(
  rows: DnssecKeyRow[],
  query: KeyPageQuery = {},
): { keys: DnssecKeyRow[] } & KeyPageInfo {
  const req: PageRequest = {
    limit: query.keys_limit,
    cursor: query.keys_cursor,
    offset: query.keys_offset,
  };
  if (!pageRequested(req)) return { keys: rows, keys_total: rows.length, keys_next_cursor: null };
  const keyOf = (k: DnssecKeyRow): PageKey => [k.created_at, k.id];
  const sorted = rows.toSorted((a, b) => compare(keyOf(a), keyOf(b)));
  const { items, ...info }: { items: DnssecKeyRow[] } & PageInfo = paginate(req, {
    kind: "dnssec-keys",
    shape: ["n", "s"],
    keyOf,
    rows: (w) => {
      const after = w.after;
      const rest = after ? sorted.filter((k) => compare(keyOf(k), after) > 0) : sorted;
      return rest.slice(w.offset, w.limit === undefined ? undefined : w.offset + w.limit);
    },
    count: () => sorted.length,
  }, "keys_");
  return { keys: items, keys_total: info.total, keys_next_cursor: info.next_cursor };
}
