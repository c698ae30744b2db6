import { assertEquals } from "../tests/assert.ts";
import { scriptEndpoint } from "./script_endpoint.ts";

const PAGE = "https://shop.example/checkout?step=2";

Deno.test("scriptEndpoint() is the folder of the script's URL, or data-endpoint", () => {
  const tag = (src: string, endpoint?: string) => ({ src, dataset: { endpoint } });
  assertEquals(
    scriptEndpoint(tag("https://attest.example/palisade-attest.js"), PAGE),
    "https://attest.example",
  );
  assertEquals(
    scriptEndpoint(tag("https://example.org/attest/palisade-attest.js?v=2"), PAGE),
    "https://example.org/attest",
  );
  assertEquals(scriptEndpoint(tag("/palisade-attest.js"), PAGE), "https://shop.example");
  assertEquals(
    scriptEndpoint(tag("/palisade-attest.js", "https://attest.example/"), PAGE),
    "https://attest.example",
  );
  assertEquals(scriptEndpoint(null, PAGE), null);
});
