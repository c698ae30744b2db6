import { assertEquals } from "../../tests/assert.ts";
import { generatedSource } from "./gen_unrolled.ts";

Deno.test("wasm/assembly/generated.ts is what gen_unrolled.ts generates", async () => {
  const onDisk = await Deno.readTextFile(new URL("../assembly/generated.ts", import.meta.url));
  assertEquals(onDisk, generatedSource(), "run: deno run --allow-write wasm/tools/gen_unrolled.ts");
});
