/**
 * Tokens for registered sites (docs/attestation_sites.md, "Tokens and
 * siteverify"): `POST /token` issues, `POST /siteverify` verifies, the
 * housekeeping purges. One per thread serving the attestation listener,
 * built by the attestation service; none of it runs on the heartbeat path.
 */
import type { Clock } from "../../clock.ts";
import type { Logger } from "../../log/log.ts";
import { Ed25519Verifier } from "../ed25519.ts";
import type { SignalSource } from "../signals/session_signals.ts";
import type { SiteDirectory } from "../sites/site_directory.ts";
import type { SiteRepoAsync } from "../sites/site_repo.ts";
import { siteverify, type SiteverifyAnswer, type SiteverifyInput } from "./siteverify.ts";
import { renderTokenMetrics, TokenCounters, type TokenCounterTable } from "./token_counters.ts";
import { type IssuedToken, issueToken } from "./token_issue.ts";
import type { AttestTokenRepoAsync } from "./token_repo.ts";

/** Tokens stay this long past expiry, so that a late verify still says timeout-or-duplicate. */
export const TOKEN_PURGE_GRACE_MS = 3_600_000;

/** The token tables as the service reads them, on either engine. */
export interface TokenStores {
  repo: AttestTokenRepoAsync;
  sites: Pick<SiteRepoAsync, "byId" | "bySecretHash">;
}

export interface TokenServiceDeps extends TokenStores {
  directory: SiteDirectory;
  clock: Clock;
  log: Logger;
  counters: TokenCounterTable;
  row: number;
  signals?: SignalSource;
}

export class TokenService {
  readonly counters: TokenCounters;
  readonly #verifier = new Ed25519Verifier(1024);

  constructor(private readonly d: TokenServiceDeps) {
    this.counters = new TokenCounters(d.counters, d.row);
  }

  /** `POST /token`; throws ValidationError, ForbiddenError or ConflictError (docs). */
  issue(token: unknown, origin: string | null): Promise<IssuedToken> {
    const { repo, sites, directory, clock } = this.d;
    return issueToken(
      { repo, sites, directory, clock, counters: this.counters, verifier: this.#verifier },
      token,
      origin,
    );
  }

  /** `POST /siteverify`: always an answer (see siteverify.ts). */
  verify(input: SiteverifyInput): Promise<SiteverifyAnswer> {
    const { repo, sites, clock, log, signals } = this.d;
    return siteverify({ repo, sites, clock, log, signals, counters: this.counters }, input);
  }

  /** Deletes tokens expired before now − grace; returns how many. */
  purge(): Promise<number> {
    return this.d.repo.purge(this.d.clock.now() - TOKEN_PURGE_GRACE_MS);
  }

  metrics(): string {
    return renderTokenMetrics(this.d.directory.entries(), this.counters);
  }
}
