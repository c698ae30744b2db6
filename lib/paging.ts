/**
 * The one pagination convention of both APIs (docs/api.md, "Pagination").
 *
 * A listing takes `limit` (1–MAX_PAGE_LIMIT; absent: every match, as the
 * listing answered before it paged), and either `cursor` (the `next_cursor`
 * of the previous page) or `offset`. It answers its items under its own key,
 * plus `total` (every match, ignoring the page) and `next_cursor` (null on
 * the last page).
 *
 * A cursor is keyset: the sort key of the last item served, base64url JSON,
 * opaque to clients. The next page is what sorts after that key, so inserts
 * and deletes elsewhere in the list do not shift it: every item that existed
 * when the walk began and still exists appears exactly once. Each listing's
 * sort key ends in a unique, immutable column, which makes the order total.
 * `offset` skips rows and gives no such guarantee.
 */
import { z } from "zod";
import { ValidationError } from "./errors.ts";

/** The largest page; a larger `limit` is 400. */
export const MAX_PAGE_LIMIT = 1000;

/** A sort key: the values of the listing's ORDER BY columns, last one unique. */
export type PageKey = (string | number)[];

/** The query of a paged listing, as the router parsed it. */
export interface PageRequest {
  limit?: number;
  cursor?: string;
  offset?: number;
}

/**
 * What a repository is asked for: the rows after `after` (keyset) or from
 * `offset`, at most `limit` of them (undefined: to the end).
 */
export interface PageWindow {
  after?: PageKey;
  offset: number;
  limit?: number;
}

/** The fields a paged listing adds to its response. */
export interface PageInfo {
  total: number;
  next_cursor: string | null;
}

/** The query fields of every paged listing (merged into its query schema). */
export const pageQueryFields = {
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).optional().describe(
    `Page size, 1–${MAX_PAGE_LIMIT}; absent: every match`,
  ),
  cursor: z.string().max(2048).optional().describe(
    "The next_cursor of the previous page (opaque; empty: the first page); not with offset",
  ),
  offset: z.coerce.number().int().min(0).optional().describe(
    "Matches to skip (not stable under concurrent changes; prefer cursor); not with cursor",
  ),
};

/** The query schema of a listing that takes only the paging fields. */
export const PageQuery = z.object(pageQueryFields);

/** The response fields every paged listing adds. */
export const pageResponseFields = {
  total: z.number().int().describe("Every match, ignoring limit, cursor and offset"),
  next_cursor: z.string().nullable().describe(
    "Pass as cursor for the next page; null on the last page",
  ),
};

/** The cursor of the item whose sort key is `key`, in listing `kind`. */
export function encodeCursor(kind: string, key: PageKey): string {
  const bytes = new TextEncoder().encode(JSON.stringify([kind, ...key]));
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/**
 * The sort key in `cursor`; ValidationError (field `cursor`, or `field`)
 * unless it is a cursor of listing `kind` whose key has the types of `shape`.
 */
export function decodeCursor(
  kind: string,
  cursor: string,
  shape: readonly ("s" | "n")[],
  field = "cursor",
): PageKey {
  const invalid = () => new ValidationError(`Invalid cursor "${cursor}"`, { field });
  if (!/^[A-Za-z0-9_-]*$/.test(cursor)) throw invalid();
  let parsed: unknown;
  try {
    const bin = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
    const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed[0] !== kind || parsed.length !== shape.length + 1) {
    throw invalid();
  }
  const key = parsed.slice(1);
  const fits = key.every((v, i) =>
    shape[i] === "s" ? typeof v === "string" : typeof v === "number" && Number.isSafeInteger(v)
  );
  if (!fits) throw invalid();
  return key;
}

/** How one listing pages: its cursor kind, key shape, and its two queries. */
export interface Pager<T> {
  kind: string;
  shape: readonly ("s" | "n")[];
  keyOf(item: T): PageKey;
  /** The rows of `window` in the listing's order. */
  rows(window: PageWindow): T[];
  /** Every match. */
  count(): number;
}

/** Whether `req` asks for a page rather than the whole listing. */
export function pageRequested(req: PageRequest): boolean {
  return req.limit !== undefined || !!req.cursor || req.offset !== undefined;
}

/**
 * One page of a listing, with its total and the cursor of the next page.
 * `prefix` names the query fields in errors where a response pages one of its
 * several lists (`keys_cursor` of the DNSSEC status).
 */
export function paginate<T>(
  req: PageRequest,
  pager: Pager<T>,
  prefix = "",
): { items: T[] } & PageInfo {
  const w = windowOf(req, pager, prefix);
  return pageOf(req, pager, w, pager.rows(w), () => pager.count());
}

/** A `Pager` whose queries are asynchronous (a repository ported to both engines). */
export interface AsyncPager<T> extends Omit<Pager<T>, "rows" | "count"> {
  rows(window: PageWindow): Promise<T[]>;
  count(): Promise<number>;
}

/** `paginate()` over an `AsyncPager`: the same pages, cursors and errors. */
export async function paginateAsync<T>(
  req: PageRequest,
  pager: AsyncPager<T>,
  prefix = "",
): Promise<{ items: T[] } & PageInfo> {
  const w = windowOf(req, pager, prefix);
  const rows = await pager.rows(w);
  const total = needsCount(req, w) ? await pager.count() : rows.length;
  return pageOf(req, pager, w, rows, () => total);
}

/** The window `req` asks for, one row past the page (it tells whether another page follows). */
function windowOf(
  req: PageRequest,
  pager: Pick<Pager<unknown>, "kind" | "shape">,
  prefix: string,
): PageWindow {
  const field = `${prefix}cursor`;
  // An empty cursor is the first page, as if none were given.
  const cursor = req.cursor === "" ? undefined : req.cursor;
  if (cursor !== undefined && req.offset !== undefined) {
    throw new ValidationError(`Give "${field}" or "${prefix}offset", not both`, { field });
  }
  const after = cursor === undefined
    ? undefined
    : decodeCursor(pager.kind, cursor, pager.shape, field);
  return {
    after,
    offset: req.offset ?? 0,
    limit: req.limit === undefined ? undefined : req.limit + 1,
  };
}

/** Without paging the listing is its own total: no second query. */
function needsCount(req: PageRequest, w: PageWindow): boolean {
  return !(req.limit === undefined && w.offset === 0 && w.after === undefined);
}

function pageOf<T>(
  req: PageRequest,
  pager: Pick<Pager<T>, "kind" | "keyOf">,
  w: PageWindow,
  rows: T[],
  count: () => number,
): { items: T[] } & PageInfo {
  const more = req.limit !== undefined && rows.length > req.limit;
  const items = more ? rows.slice(0, req.limit) : rows;
  const total = needsCount(req, w) ? count() : items.length;
  const next_cursor = more ? encodeCursor(pager.kind, pager.keyOf(items[items.length - 1])) : null;
  return { items, total, next_cursor };
}
