import { assert, assertEquals } from "../tests/assert.ts";
import { buildWasm, WASM_OUTPUT, WASM_SIZE_LIMIT } from "./build_wasm.ts";

Deno.test("buildWasm() writes a module within the size limit with the documented ABI", async () => {
  await buildWasm({ quiet: true });
  const bytes = await Deno.readFile(WASM_OUTPUT);
  assert(bytes.length <= WASM_SIZE_LIMIT, `${bytes.length} bytes`);
  const module = await WebAssembly.compile(bytes);
  assertEquals(
    WebAssembly.Module.imports(module).map((i) => `${i.module}.${i.name}`),
    ["env.abort"],
  );
  const exports = WebAssembly.Module.exports(module).map((e) => e.name).sort();
  for (
    const name of [
      "io_reserve",
      "arg_ptr",
      "out_ptr",
      "scratch_ptr",
      "keypair_from_arg",
      "public_key",
      "forget_key",
      "sign",
      "blake3",
      "sha512",
      "next_hash",
      "vm_run",
      "gene_init",
      "gene_preview",
      "gene_commit",
      "gene_discard",
      "gene_current",
      "order_rounds",
      "scratch_init",
      "scratch_mutate",
      "scratch_commit",
      "memory",
    ]
  ) assert(exports.includes(name), `missing export ${name}`);
});
