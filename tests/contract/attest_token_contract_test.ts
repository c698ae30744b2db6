/**
 * Attestation tokens (lib/attest/tokens/token_repo.ts, pg_token_repo.ts)
 * behave the same on SQLite and PostgreSQL: registration once, the session
 * a token names, redemption as a conditional UPDATE that exactly one of
 * many concurrent verifies wins, and purge by expiry.
 */
import { assertEquals } from "../assert.ts";
import type { NewAttestToken } from "../../lib/attest/tokens/token_repo.ts";
import { attestRepos, session } from "./attest_fixtures.ts";
import { repoContract } from "./engines.ts";

const SID = "a".repeat(32);

const token = (id: string, expiresAt: number): NewAttestToken => ({
  token_id: id,
  site_id: "s1",
  session_id: SID,
  issued_at: 100,
  expires_at: expiresAt,
  chain_length: 4,
  session_age_ms: 900,
});

repoContract("AttestTokenRepo", {
  "a token registers once and reads back unused": async (e) => {
    const { tokens } = attestRepos(e);
    assertEquals(await tokens.insert(token("t1", 500)), true);
    assertEquals(await tokens.insert(token("t1", 900)), false);
    assertEquals({ ...await tokens.byId("t1") }, {
      ...token("t1", 500),
      used_at: null,
      idempotency_key: null,
      result: null,
    });
    assertEquals(await tokens.byId("t2"), undefined);
  },
  "the session a token names": async (e) => {
    const { tokens, sessions } = attestRepos(e);
    assertEquals(await tokens.session(SID), undefined);
    await sessions.create(session(SID, 5000, { chain_length: 7, site_id: "s1" }));
    assertEquals({ ...await tokens.session(SID) }, {
      public_key: "ab".repeat(32),
      chain_length: 7,
      created_at: 1000,
      expires_at: 5000,
      site_id: "s1",
    });
  },
  "of 20 concurrent redemptions exactly one marks the token used": async (e) => {
    const { tokens } = attestRepos(e);
    await tokens.insert(token("t1", 500));
    const wins = await Promise.all(
      Array.from({ length: 20 }, (_, i) => tokens.markUsed("t1", 200 + i, `k${i}`, `{"n":${i}}`)),
    );
    assertEquals(wins.filter((w) => w).length, 1);
    const i = wins.indexOf(true);
    const row = await tokens.byId("t1");
    assertEquals([row?.used_at, row?.idempotency_key, row?.result], [
      200 + i,
      `k${i}`,
      `{"n":${i}}`,
    ]);
    assertEquals(await tokens.markUsed("t1", 999, null, "{}"), false);
    assertEquals(await tokens.markUsed("nope", 999, null, "{}"), false);
  },
  "purge deletes the tokens that expired before the cutoff": async (e) => {
    const { tokens } = attestRepos(e);
    await tokens.insert(token("t1", 100));
    await tokens.insert(token("t2", 200));
    await tokens.insert(token("t3", 300));
    assertEquals(await tokens.purge(200), 1);
    assertEquals(await tokens.byId("t1"), undefined);
    assertEquals((await tokens.byId("t2"))?.token_id, "t2");
    assertEquals(await tokens.purge(1000), 2);
  },
});
