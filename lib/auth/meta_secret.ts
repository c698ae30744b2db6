import type { MetaRepo } from "../system/meta_repo.ts";

/**
 * A random secret kept in the store's `meta` table, created on first use, so
 * it survives restarts without living in configuration or logs.
 */
export function metaSecret(meta: MetaRepo, key: string, bytes = 32): Uint8Array {
  const value = meta.get(key);
  if (value !== undefined) return Uint8Array.from(atob(value), (c) => c.charCodeAt(0));
  const secret = crypto.getRandomValues(new Uint8Array(bytes));
  meta.insertIfAbsent(key, btoa(String.fromCharCode(...secret)));
  // Read back: a concurrent first start may have won the insert.
  return metaSecret(meta, key, bytes);
}
