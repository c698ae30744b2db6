import { Store } from "../../lib/store/store.ts";

/** A fresh migrated store in its own temporary directory, removed on dispose. */
export async function tempStore(): Promise<{ store: Store; dir: string } & AsyncDisposable> {
  const dir = await Deno.makeTempDir({ prefix: "palisade-store-" });
  const store = Store.open(`${dir}/palisade.db`);
  return {
    store,
    dir,
    async [Symbol.asyncDispose]() {
      store.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}
