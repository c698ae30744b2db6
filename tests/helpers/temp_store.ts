import { Store, type StoreTuning } from "../../lib/store/store.ts";

/** A fresh migrated store in its own temporary directory, removed on dispose. */
export async function tempStore(
  tuning?: StoreTuning,
): Promise<{ store: Store; dir: string } & AsyncDisposable> {
  const dir = await Deno.makeTempDir({ prefix: "palisade-store-" });
  const store = Store.open(`${dir}/palisade.db`, { tuning });
  return {
    store,
    dir,
    async [Symbol.asyncDispose]() {
      store.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}
