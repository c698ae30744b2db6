/**
 * The TSIG keys with their secrets, in memory: the DNS listener checks a
 * signed request against them without a round trip to the store, which on
 * PostgreSQL would sit on every signed query's path. Loaded at start and
 * again after each committed key change (tsig_service.ts); another
 * instance's change arrives with the DNS index sync (index_sync.ts).
 */
import type { StoredTsigKey, TsigKeyRepo } from "./key_repo.ts";
import type { TsigKeyring } from "./sign.ts";

export class TsigKeyCache implements TsigKeyring {
  #keys = new Map<string, StoredTsigKey>();
  /** Bumped per load started, so a slower earlier load cannot overwrite a later one. */
  #loads = 0;

  constructor(private readonly repo: Pick<TsigKeyRepo, "list" | "withSecret">) {}

  /** Reads every key with its secret from the store. */
  async load(): Promise<void> {
    const mine = ++this.#loads;
    const next = new Map<string, StoredTsigKey>();
    for (const { name } of await this.repo.list()) {
      const key = await this.repo.withSecret(name);
      if (key) next.set(name, key);
    }
    if (mine === this.#loads) this.#keys = next;
  }

  withSecret(name: string): StoredTsigKey | undefined {
    return this.#keys.get(name);
  }
}
