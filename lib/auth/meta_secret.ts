import type { Store } from "../store/store.ts";

/**
 * A random secret kept in the store's `meta` table, created on first use, so
 * it survives restarts without living in configuration or logs.
 */
export function metaSecret(store: Store, key: string, bytes = 32): Uint8Array {
  const row = store.get<{ value: string }>("SELECT value FROM meta WHERE key = ?", key);
  if (row) return Uint8Array.from(atob(row.value), (c) => c.charCodeAt(0));
  const secret = crypto.getRandomValues(new Uint8Array(bytes));
  store.run(
    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
    key,
    btoa(String.fromCharCode(...secret)),
  );
  // Read back: a concurrent first start may have won the insert.
  return metaSecret(store, key, bytes);
}
