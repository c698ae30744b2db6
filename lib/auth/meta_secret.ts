import type { MetaRepo } from "../system/meta_repo.ts";

/**
 * A random secret kept in the store's `meta` table, created on first use, so
 * it survives restarts without living in configuration or logs, and every
 * instance on one database shares it.
 */
export async function metaSecret(meta: MetaRepo, key: string, bytes = 32): Promise<Uint8Array> {
  const value = await meta.get(key);
  if (value !== undefined) return Uint8Array.from(atob(value), (c) => c.charCodeAt(0));
  const secret = crypto.getRandomValues(new Uint8Array(bytes));
  await meta.insertIfAbsent(key, btoa(String.fromCharCode(...secret)));
  // Read back: a concurrent first start (here or on another instance) may have won the insert.
  return metaSecret(meta, key, bytes);
}
