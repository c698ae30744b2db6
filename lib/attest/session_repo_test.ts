import { assertEquals } from "../../tests/assert.ts";
import { rawRow, rawSet } from "../../tests/helpers/raw_sql.ts";
import { tempStore } from "../../tests/helpers/temp_store.ts";
import { Store } from "../store/store.ts";
import type { RowHint } from "../store/row_hint.ts";
import { ADVANCE_BY_ROWID, EXPIRY_BUCKET_MS, SqliteAttestSessionRepo } from "./session_repo.ts";

const session = {
  session_id: "aa".repeat(32),
  public_key: "bb".repeat(32),
  salt: "cc".repeat(16),
  last_hash: "dd".repeat(32),
  pending_step: 1,
  pending_order: "AQEBAAAAAAA=",
  gene_state: new Uint8Array(64),
  chain_length: 0,
  program: "AAAAAAAAAAA=",
  created_at: 1,
  expires_at: 1_000_000,
};

Deno.test("SqliteAttestSessionRepo.advance() is a compare-and-set: of two writers with the same head, one wins", async () => {
  await using t = await tempStore();
  // Two connections to one file stand for two processes racing.
  const other = Store.open(t.store.path);
  try {
    const a = new SqliteAttestSessionRepo(t.store);
    const b = new SqliteAttestSessionRepo(other);
    const hint = a.create(session);
    const move = (nextHash: string) => ({
      session_id: session.session_id,
      hint,
      expectHash: session.last_hash,
      expectStep: 1,
      expectExpiresAt: session.expires_at,
      nextHash,
      nextSalt: "ee".repeat(16),
      nextOrder: "AQEBAAAAAAA=",
      nextGene: new Uint8Array(64).fill(1),
      expiresAt: 2_000_000,
      now: 2,
    });
    assertEquals(b.advance(move("11".repeat(32))), true);
    assertEquals(a.advance(move("22".repeat(32))), false);
    const row = a.get(session.session_id)!;
    assertEquals(row.last_hash, "11".repeat(32));
    assertEquals(row.chain_length, 1);
    assertEquals(row.pending_step, 2);
  } finally {
    other.close();
  }
});

Deno.test("SqliteAttestSessionRepo reads the highest chain length of all sessions and of those a purge would remove", async () => {
  await using t = await tempStore();
  const s = new SqliteAttestSessionRepo(t.store);
  assertEquals(s.maxChainLength(), 0, "no sessions");
  s.create({ ...session, session_id: "01".repeat(32), chain_length: 7, expires_at: 100 });
  s.create({ ...session, session_id: "02".repeat(32), chain_length: 3, expires_at: 50 });
  s.create({ ...session, session_id: "03".repeat(32), chain_length: 9, expires_at: 500 });
  assertEquals(s.maxChainLength(), 9);
  assertEquals(s.maxChainLengthExpired(60), 3, "only the session that expired before 60");
  assertEquals(s.maxChainLengthExpired(101), 7);
  assertEquals(s.maxChainLengthExpired(10), 0, "none expired");
});

Deno.test("SqliteAttestSessionRepo counts and purges expired sessions exactly, whatever their expiry bucket", async () => {
  await using t = await tempStore();
  const s = new SqliteAttestSessionRepo(t.store);
  const B = EXPIRY_BUCKET_MS;
  const now = 10 * B + B / 2; // halfway through a bucket
  const expiries = {
    "01": 3 * B, // an earlier bucket
    "02": 10 * B, // this bucket, expired
    "03": now - 1, // this bucket, expired a moment ago
    "04": now, // this bucket, expires now: not yet expired
    "05": now + 1, // this bucket, not expired
    "06": 11 * B, // a later bucket
  };
  for (const [id, expires_at] of Object.entries(expiries)) {
    s.create({ ...session, session_id: id.repeat(32), expires_at });
  }
  assertEquals(s.expiredCount(now), 3);
  assertEquals(s.expiredCount(3 * B), 0, "nothing before the first expiry");
  assertEquals(s.expiredCount(12 * B), 6);
  assertEquals(s.purge(now).sort(), ["01", "02", "03"].map((id) => id.repeat(32)));
  assertEquals(s.count(), 3);
  assertEquals(s.expiredCount(now), 0);
});

Deno.test("SqliteAttestSessionRepo.advance() keeps expires_bucket in step with expires_at, and mends a bucket that is off", async () => {
  await using t = await tempStore();
  const s = new SqliteAttestSessionRepo(t.store);
  const B = EXPIRY_BUCKET_MS;
  const hint = s.create({ ...session, expires_at: 5 * B + 10 });
  const bucketOf = () => ({
    ...rawRow<{ b: number; e: number }>(
      t.store,
      "attest_sessions",
      ["expires_bucket AS b", "expires_at AS e"],
      { session_id: session.session_id },
    ),
  });
  assertEquals(bucketOf(), { b: 5, e: 5 * B + 10 });
  let step = 1;
  let head = session.last_hash;
  let expires = 5 * B + 10;
  const advance = (expiresAt: number) => {
    const nextHash = String(step).padStart(2, "0").repeat(32);
    const ok = s.advance({
      session_id: session.session_id,
      hint,
      expectHash: head,
      expectStep: step,
      expectExpiresAt: expires,
      nextHash,
      nextSalt: "ee".repeat(16),
      nextOrder: "AQEBAAAAAAA=",
      nextGene: new Uint8Array(64),
      expiresAt,
      now: expiresAt - 1_800_000,
    });
    if (ok) [head, step, expires] = [nextHash, step + 1, expiresAt];
    return ok;
  };
  assertEquals(advance(5 * B + 20), true, "same bucket");
  assertEquals(bucketOf(), { b: 5, e: 5 * B + 20 });
  assertEquals(advance(6 * B + 1), true, "into the next bucket");
  assertEquals(bucketOf(), { b: 6, e: 6 * B + 1 });
  // A bucket set wrong by hand is mended by the next accepted heartbeat.
  rawSet(t.store, "attest_sessions", { expires_bucket: 2 });
  assertEquals(advance(6 * B + 2), true);
  assertEquals(bucketOf(), { b: 6, e: 6 * B + 2 });
  // A stale head still loses, by either statement.
  head = "ff".repeat(32);
  assertEquals(advance(6 * B + 3), false, "same bucket, wrong head");
  assertEquals(advance(7 * B), false, "next bucket, wrong head");
  assertEquals(bucketOf(), { b: 6, e: 6 * B + 2 });
});

Deno.test("SqliteAttestSessionRepo.advance() finds the row by its hint (the rowid), and by its id when the hint is stale", async () => {
  await using t = await tempStore();
  const s = new SqliteAttestSessionRepo(t.store);
  // Two sessions in the same state but for their ids.
  const a = { ...session, session_id: "0a".repeat(32) };
  const b = { ...session, session_id: "0b".repeat(32) };
  const rowA = s.create(a);
  const rowB = s.create(b);
  assertEquals(rowB, rowA + 1, "the hint is the rowid");
  // The usual statement is a rowid lookup, not a search of the id index.
  const plan = t.store.all<{ detail: string }>(
    `EXPLAIN QUERY PLAN ${ADVANCE_BY_ROWID}`,
    ...Array(11).fill(null),
  ).map((r) => r.detail).join("; ");
  assertEquals(/USING INTEGER PRIMARY KEY \(rowid=\?\)/.test(plan), true, plan);
  const advance = (hint: RowHint, nextHash: string) =>
    s.advance({
      session_id: a.session_id,
      hint,
      expectHash: a.last_hash,
      expectStep: 1,
      expectExpiresAt: a.expires_at,
      nextHash,
      nextSalt: "ee".repeat(16),
      nextOrder: "AQEBAAAAAAA=",
      nextGene: new Uint8Array(64).fill(1),
      expiresAt: a.expires_at + 1,
      now: 2,
    });
  // B's rowid (as after a VACUUM renumbered the rows): A moves, B does not.
  assertEquals(advance(rowB, "11".repeat(32)), true);
  assertEquals(s.get(a.session_id)!.last_hash, "11".repeat(32));
  assertEquals(s.get(b.session_id)!.last_hash, b.last_hash);
  assertEquals(s.get(b.session_id)!.pending_step, 1);
  // The same heartbeat again, with A's own rowid: the head moved on, so it loses.
  assertEquals(advance(rowA, "22".repeat(32)), false);
  assertEquals(s.get(a.session_id)!.last_hash, "11".repeat(32));
});
