/** The attestation tables on PostgreSQL: the counterpart of `sqliteAttestReposAsync`. */
import type { PgAsync } from "../store/pg/pg_async.ts";
import { PgAttestSessionRepo } from "./pg_session_repo.ts";
import { PgSignalRepo } from "./signals/pg_signal_repo.ts";
import { PgSiteRepo } from "./sites/pg_site_repo.ts";
import type { AttestReposAsync } from "./sqlite_repos.ts";
import { PgAttestTokenRepo } from "./tokens/pg_token_repo.ts";

export function pgAttestRepos(db: PgAsync): AttestReposAsync {
  return {
    sessions: new PgAttestSessionRepo(db),
    sites: new PgSiteRepo(db),
    tokens: new PgAttestTokenRepo(db),
    signals: new PgSignalRepo(db),
  };
}
