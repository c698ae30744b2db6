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
