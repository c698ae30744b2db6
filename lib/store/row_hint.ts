/**
 * An opaque handle a repository hands out with a row and takes back to find
 * that row faster than by its id (SQLite: the rowid). Only the repository
 * that made it may read it; the domain id still decides which row is meant,
 * so a stale hint costs a slower lookup, never a wrong row. An engine without
 * such a handle hands out 0.
 */
export type RowHint = number & { readonly __rowHint: unique symbol };

/** No hint: the repository finds the row by its id. */
export const NO_HINT = 0 as RowHint;
