import { assert, assertEquals, assertRejects, assertThrows } from "../../tests/assert.ts";
import { ensureWasm } from "../../scripts/build_wasm.ts";
import { loadTestCore } from "../../tests/helpers/attest_core.ts";
import { ValidationError } from "../errors.ts";
import { toHex } from "../bytes.ts";
import { isValidGeneSize, loadCore } from "./core.ts";
import { randomMutationOrder } from "./mutation_order.ts";
import { randomProgram } from "./program.ts";

function hex(n: number): string {
  return toHex(crypto.getRandomValues(new Uint8Array(n)));
}

Deno.test("loadCore() reads the default module and computes what the browser computes", async () => {
  await ensureWasm();
  const server = await loadCore();
  const browser = await loadTestCore();
  const program = randomProgram();
  assertEquals(server.runProgram(program), browser.run_program(program));
  const [prev, salt] = [hex(32), hex(16)];
  assertEquals(
    server.nextHash(prev, 1_700_000_000_000, '{"events":[]}', '{"ip":8,"stack":[1]}', salt),
    browser.compute_next_hash(
      prev,
      1_700_000_000_000,
      '{"events":[]}',
      '{"ip":8,"stack":[1]}',
      salt,
    ),
  );
  assertEquals(toHex(server.blake3(new Uint8Array(0))).slice(0, 8), "af1349b9");
});

Deno.test("loadCore() names the missing file and the build task", async () => {
  await assertRejects(() => loadCore("/nonexistent/attest.wasm"), Error, "deno task build");
});

Deno.test("initialGeneState() throws ValidationError for an invalid size", async () => {
  const server = await loadCore(await ensureWasm());
  assertThrows(() => server.initialGeneState(63), ValidationError, "Gene size 63");
  assertThrows(() => server.initialGeneState(65537), ValidationError);
  assertEquals(server.initialGeneState(512).length, 512);
  assert(isValidGeneSize(64) && isValidGeneSize(65536));
  assert(!isValidGeneSize(63) && !isValidGeneSize(65537) && !isValidGeneSize(100.5));
});

Deno.test("a session's gene state stays in step between server and browser across accepts and rejects", async () => {
  const server = await loadCore(await ensureWasm());
  const browser = await loadTestCore();
  const sid = hex(32);
  let stored = server.initialGeneState(512); // what the server persists
  assert(browser.init_gene_state(512));
  let step = 1;
  let order = randomMutationOrder();
  for (let beat = 0; beat < 30; beat++) {
    const rounds = browser.mutation_order_rounds(order);
    const claimed = browser.preview_gene_commitment(order, sid, step, rounds);
    const expected = server.advanceGene(stored, order, sid, step)!;
    assertEquals(claimed, expected.commitment);
    if (beat % 4 === 3) {
      // Rejected for another reason: neither side advances.
      browser.discard_gene_preview();
      continue;
    }
    stored = expected.state;
    assert(browser.commit_gene_preview());
    assertEquals(
      browser.current_gene_commitment(sid, step),
      server.geneCommitment(stored, sid, step),
    );
    step++;
    order = randomMutationOrder();
  }
  assertEquals(server.orderRounds("bad"), 0);
  assertEquals(server.advanceGene(stored, "bad", sid, step), null);
});
