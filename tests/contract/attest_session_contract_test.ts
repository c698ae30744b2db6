/**
 * Attestation sessions (lib/attest/session_repo.ts, pg_session_repo.ts)
 * behave the same on SQLite and PostgreSQL: a session reads back as /init
 * stored it, a heartbeat's compare-and-set advances it once and refuses a
 * stale or replayed head, 50 concurrent attempts on one head give exactly
 * one winner, and counts, longest chains and purge go by exact expiry.
 */
import { assertEquals } from "../assert.ts";
import { type Advance, EXPIRY_BUCKET_MS } from "../../lib/attest/session_repo.ts";
import type { RowHint } from "../../lib/store/row_hint.ts";
import { attestRepos, session } from "./attest_fixtures.ts";
import { repoContract } from "./engines.ts";

const SID = "a".repeat(32);
const HEAD = "11".repeat(32);

function advance(n: number, over: Partial<Advance> = {}): Advance {
  return {
    session_id: SID,
    hint: 0 as RowHint,
    expectHash: HEAD,
    expectStep: 1,
    expectExpiresAt: 5000,
    nextHash: `${n}`.padStart(64, "f"),
    nextSalt: `${n}`.padStart(32, "0"),
    nextOrder: `order-${n}`,
    nextGene: new Uint8Array([n, n, n, n]),
    expiresAt: 9000 + n,
    now: 2000 + n,
    ...over,
  };
}

repoContract("AttestSessionRepo", {
  "a session reads back as stored, and its heartbeat snapshot": async (e) => {
    const { sessions } = attestRepos(e);
    assertEquals(await sessions.snapshot(SID), undefined);
    await sessions.create(session(SID, 5000, { site_id: "s1" }));
    const got = await sessions.get(SID);
    assertEquals(
      [got?.public_key, got?.last_hash, got?.pending_step, got?.site_id, got?.chain_length],
      ["ab".repeat(32), HEAD, 1, "s1", 0],
    );
    const snap = await sessions.snapshot(SID);
    assertEquals([...snap!.gene_state], [1, 2, 3, 4]);
    assertEquals([snap?.salt, snap?.pending_order, snap?.expires_at], [
      "00".repeat(16),
      "AAEC",
      5000,
    ]);
  },
  "a compare-and-set advances the head once; a replay of the old head is refused": async (e) => {
    const { sessions } = attestRepos(e);
    await sessions.create(session(SID, 5000));
    assertEquals(await sessions.advance(advance(1)), true);
    const snap = await sessions.snapshot(SID);
    assertEquals(
      [snap?.last_hash, snap?.pending_step, snap?.chain_length, snap?.salt, snap?.expires_at],
      [advance(1).nextHash, 2, 1, advance(1).nextSalt, 9001],
    );
    assertEquals([...snap!.gene_state], [1, 1, 1, 1]);
    assertEquals(await sessions.advance(advance(2)), false, "the old head again");
    assertEquals(
      await sessions.advance(advance(3, { expectHash: advance(1).nextHash })),
      false,
      "the new head with the old step",
    );
    assertEquals(
      await sessions.advance(advance(4, { expectHash: advance(1).nextHash, expectStep: 2 })),
      true,
    );
    assertEquals(await sessions.advance(advance(5, { session_id: "b".repeat(32) })), false);
  },
  "of 50 concurrent compare-and-sets on one head exactly one wins": async (e) => {
    const { sessions } = attestRepos(e);
    await sessions.create(session(SID, 5000));
    const wins = await Promise.all(
      Array.from({ length: 50 }, (_, i) => sessions.advance(advance(i + 1))),
    );
    assertEquals(wins.filter((w) => w).length, 1);
    const winner = wins.indexOf(true) + 1;
    const snap = await sessions.snapshot(SID);
    assertEquals(
      [snap?.last_hash, snap?.pending_step, snap?.chain_length],
      [advance(winner).nextHash, 2, 1],
    );
  },
  "counts, longest chains and purge go by exact expiry across buckets": async (e) => {
    const { sessions } = attestRepos(e);
    const B = EXPIRY_BUCKET_MS;
    const rows: [string, number, number][] = [
      ["a", B - 10, 7],
      ["b", 2 * B + 5, 3],
      ["c", 2 * B + 50, 9],
      ["d", 5 * B, 4],
    ];
    for (const [c, exp, chain] of rows) {
      await sessions.create(session(c.repeat(32), exp, { chain_length: chain }));
    }
    assertEquals(await sessions.count(), 4);
    assertEquals(await sessions.maxChainLength(), 9);
    assertEquals(await sessions.expiredCount(2 * B + 10), 2);
    assertEquals(await sessions.maxChainLengthExpired(2 * B + 10), 7);
    assertEquals((await sessions.purge(2 * B + 10)).sort(), ["a".repeat(32), "b".repeat(32)]);
    assertEquals(await sessions.count(), 2);
    assertEquals(await sessions.expiredCount(2 * B + 10), 0);
    assertEquals(await sessions.maxChainLengthExpired(6 * B), 9);
    assertEquals(await sessions.purge(6 * B), ["c".repeat(32), "d".repeat(32)].sort());
    assertEquals([await sessions.count(), await sessions.maxChainLength()], [0, 0]);
  },
});
