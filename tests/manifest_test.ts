import { assertEquals } from "./assert.ts";
import { generateManifest } from "../scripts/manifest.ts";

Deno.test("the route tables (routes/*.gen.ts) and the islands' files (islands/*.gen.ts) are up to date (run `deno task manifest`)", async () => {
  for (const [path, expected] of Object.entries(await generateManifest())) {
    const actual = await Deno.readTextFile(new URL(`../${path}`, import.meta.url));
    assertEquals(actual, expected, `${path} is stale: run \`deno task manifest\``);
  }
});
