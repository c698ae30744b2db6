/**
 * The attestation service's repositories. `sqliteAttestRepos` is the set
 * over one store connection that the main thread and every thread serving
 * the listener build the same way: synchronous for the heartbeat path
 * (sessions, signals, the site directory), asynchronous for the tokens.
 * `AttestReposAsync` is the asynchronous set, on SQLite
 * (`sqliteAttestReposAsync`, for the site service and the contract suites)
 * and on PostgreSQL (`pgAttestRepos`, `pg_repos.ts`).
 */
import { SqliteAsync } from "../store/sqlite_async.ts";
import type { Store } from "../store/store.ts";
import {
  type AttestSessionRepoAsync,
  SqliteAttestSessionRepo,
  SqliteAttestSessionRepoAsync,
} from "./session_repo.ts";
import {
  type SignalRepoAsync,
  SqliteSignalRepo,
  SqliteSignalRepoAsync,
} from "./signals/signal_repo.ts";
import { type SiteRepoAsync, SqliteSiteRepo, SqliteSiteRepoAsync } from "./sites/site_repo.ts";
import { type AttestTokenRepoAsync, SqliteAttestTokenRepoAsync } from "./tokens/token_repo.ts";

export function sqliteAttestRepos(store: Store) {
  const db = SqliteAsync.of(store);
  return {
    sessions: new SqliteAttestSessionRepo(store),
    sites: new SqliteSiteRepo(store),
    // Off the heartbeat path, so asynchronous on both engines (`POST /token`, `/siteverify`).
    tokens: { repo: new SqliteAttestTokenRepoAsync(db), sites: new SqliteSiteRepoAsync(db) },
    signals: new SqliteSignalRepo(store),
  };
}

/** The attestation tables, asynchronous, on either engine. */
export interface AttestReposAsync {
  sessions: AttestSessionRepoAsync;
  sites: SiteRepoAsync;
  tokens: AttestTokenRepoAsync;
  signals: SignalRepoAsync;
}

export function sqliteAttestReposAsync(store: Store): AttestReposAsync {
  const db = SqliteAsync.of(store);
  return {
    sessions: new SqliteAttestSessionRepoAsync(db),
    sites: new SqliteSiteRepoAsync(db),
    tokens: new SqliteAttestTokenRepoAsync(db),
    signals: new SqliteSignalRepoAsync(db),
  };
}
