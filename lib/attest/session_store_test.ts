import { assertEquals } from "../../tests/assert.ts";
import { tempStore } from "../../tests/helpers/temp_store.ts";
import { Store } from "../store/store.ts";
import { AttestSessionStore } from "./session_store.ts";

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

Deno.test("AttestSessionStore.advance() is a compare-and-set: of two writers with the same head, one wins", async () => {
  await using t = await tempStore();
  // Two connections to one file stand for two processes racing.
  const other = Store.open(t.store.path);
  try {
    const a = new AttestSessionStore(t.store);
    const b = new AttestSessionStore(other);
    a.create(session);
    const move = (nextHash: string) => ({
      session_id: session.session_id,
      expectHash: session.last_hash,
      expectStep: 1,
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

Deno.test("AttestSessionStore reads the highest chain length of all sessions and of those a purge would remove", async () => {
  await using t = await tempStore();
  const s = new AttestSessionStore(t.store);
  assertEquals(s.maxChainLength(), 0, "no sessions");
  s.create({ ...session, session_id: "01".repeat(32), chain_length: 7, expires_at: 100 });
  s.create({ ...session, session_id: "02".repeat(32), chain_length: 3, expires_at: 50 });
  s.create({ ...session, session_id: "03".repeat(32), chain_length: 9, expires_at: 500 });
  assertEquals(s.maxChainLength(), 9);
  assertEquals(s.maxChainLengthExpired(60), 3, "only the session that expired before 60");
  assertEquals(s.maxChainLengthExpired(101), 7);
  assertEquals(s.maxChainLengthExpired(10), 0, "none expired");
});
