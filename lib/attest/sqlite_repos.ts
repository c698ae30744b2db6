/**
 * The attestation service's repositories over one store connection: the main
 * thread and every thread serving the listener build them the same way.
 */
import type { Store } from "../store/store.ts";
import { SqliteAttestSessionRepo } from "./session_repo.ts";
import { SqliteSignalRepo } from "./signals/signal_repo.ts";
import { SqliteSiteRepo } from "./sites/site_repo.ts";
import { SqliteAttestTokenRepo } from "./tokens/token_repo.ts";

export function sqliteAttestRepos(store: Store) {
  return {
    sessions: new SqliteAttestSessionRepo(store),
    sites: new SqliteSiteRepo(store),
    tokens: new SqliteAttestTokenRepo(store),
    signals: new SqliteSignalRepo(store),
  };
}
