/** Rows the attestation contract suites share: a session and the repositories of an engine. */
import { pgAttestRepos } from "../../lib/attest/pg_repos.ts";
import type { AttestSession } from "../../lib/attest/session_repo.ts";
import { SqliteAttestSessionRepoAsync } from "../../lib/attest/session_repo.ts";
import { SqliteSignalRepoAsync } from "../../lib/attest/signals/signal_repo.ts";
import { SqliteSiteRepoAsync } from "../../lib/attest/sites/site_repo.ts";
import type { AttestReposAsync } from "../../lib/attest/sqlite_repos.ts";
import { SqliteAttestTokenRepoAsync } from "../../lib/attest/tokens/token_repo.ts";
import type { Engine } from "./engines.ts";

export function attestRepos(e: Engine): AttestReposAsync {
  return e.pick<AttestReposAsync>({
    sqlite: (db) => ({
      sessions: new SqliteAttestSessionRepoAsync(db),
      sites: new SqliteSiteRepoAsync(db),
      tokens: new SqliteAttestTokenRepoAsync(db),
      signals: new SqliteSignalRepoAsync(db),
    }),
    postgres: (db) => pgAttestRepos(db),
  });
}

/** A session as /init would store it, expiring at `expiresAt`. */
export function session(id: string, expiresAt: number, over: Partial<AttestSession> = {}) {
  return {
    session_id: id,
    public_key: "ab".repeat(32),
    salt: "00".repeat(16),
    last_hash: "11".repeat(32),
    pending_step: 1,
    pending_order: "AAEC",
    gene_state: new Uint8Array([1, 2, 3, 4]),
    chain_length: 0,
    program: "prog",
    created_at: 1000,
    expires_at: expiresAt,
    site_id: null,
    ...over,
  } satisfies AttestSession;
}
