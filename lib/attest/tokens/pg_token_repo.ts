/**
 * The `attest_tokens` table on PostgreSQL: the twin of
 * `SqliteAttestTokenRepoAsync`. Each write is one statement in autocommit
 * mode: registration `ON CONFLICT DO NOTHING`, redemption a conditional
 * UPDATE on `used_at IS NULL`, so of two instances verifying one token at
 * once exactly one gets the row.
 */
import type { PgAsync } from "../../store/pg/pg_async.ts";
import type { AttestTokenRepoAsync, NewAttestToken, TokenRow, TokenSession } from "./token_repo.ts";

export class PgAttestTokenRepo implements AttestTokenRepoAsync {
  constructor(private readonly db: PgAsync) {}

  async session(sessionId: string): Promise<TokenSession | undefined> {
    const [r] = await this.db.sql<TokenSession[]>`
      SELECT public_key, chain_length, created_at, expires_at, site_id
      FROM attest_sessions WHERE session_id = ${sessionId}`;
    return r;
  }

  async byId(tokenId: string): Promise<TokenRow | undefined> {
    const [r] = await this.db.sql<TokenRow[]>`
      SELECT token_id, site_id, session_id, issued_at, expires_at, chain_length, session_age_ms,
             used_at, idempotency_key, result
      FROM attest_tokens WHERE token_id = ${tokenId}`;
    return r;
  }

  async insert(r: NewAttestToken): Promise<boolean> {
    const { count } = await this.db.sql`
      INSERT INTO attest_tokens
        (token_id, site_id, session_id, issued_at, expires_at, chain_length, session_age_ms)
      VALUES (${r.token_id}, ${r.site_id}, ${r.session_id}, ${r.issued_at}, ${r.expires_at},
              ${r.chain_length}, ${r.session_age_ms})
      ON CONFLICT (token_id) DO NOTHING`;
    return count === 1;
  }

  async markUsed(
    tokenId: string,
    now: number,
    idempotencyKey: string | null,
    result: string,
  ): Promise<boolean> {
    const { count } = await this.db.sql`
      UPDATE attest_tokens SET used_at = ${now}, idempotency_key = ${idempotencyKey},
        result = ${result}
      WHERE token_id = ${tokenId} AND used_at IS NULL`;
    return count === 1;
  }

  async purge(cutoff: number): Promise<number> {
    const { count } = await this.db.sql`DELETE FROM attest_tokens WHERE expires_at < ${cutoff}`;
    return count;
  }
}
