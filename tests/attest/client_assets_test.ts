import { assert, assertEquals, assertStringIncludes } from "../assert.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { ensureWasm, WASM_SIZE_LIMIT } from "../../scripts/build_wasm.ts";
import { buildAttestClient } from "../../scripts/build_attest_client.ts";

Deno.test("the attestation listener serves the embed script and the .wasm whatever the frontend folder", async () => {
  await ensureWasm();
  await buildAttestClient();
  const site = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${site}/index.html`, "<h1>their site</h1>");
    await using t = await startTestServer({
      env: {
        PALISADE_ATTEST_FRONTEND: site,
        PALISADE_ATTEST_ALLOWED_ORIGINS: "https://shop.example",
      },
    });
    const get = (path: string, headers: Record<string, string> = {}) =>
      fetch(`${t.attest}${path}`, { headers: { Origin: "https://shop.example", ...headers } });

    const js = await get("/palisade-attest.js");
    assertEquals(js.status, 200);
    assertEquals(js.headers.get("content-type"), "text/javascript; charset=utf-8");
    assertEquals(js.headers.get("cache-control"), "no-cache");
    assertEquals(js.headers.get("cross-origin-resource-policy"), "cross-origin");
    assertEquals(js.headers.get("x-content-type-options"), "nosniff");
    const source = await js.text();
    // An IIFE: a classic script that leaks nothing but window.PalisadeAttest.
    assert(source.startsWith("(()=>{"), source.slice(0, 40));
    assertStringIncludes(source, "PalisadeAttest");

    const etag = js.headers.get("etag")!;
    const again = await get("/palisade-attest.js", { "If-None-Match": etag });
    assertEquals(again.status, 304);
    await again.body?.cancel();

    const wasm = await get("/palisade-attest.wasm");
    assertEquals(wasm.status, 200);
    assertEquals(wasm.headers.get("content-type"), "application/wasm");
    // The module is fetched cross-origin by the embedding page: it needs CORS.
    assertEquals(wasm.headers.get("access-control-allow-origin"), "https://shop.example");
    const bytes = new Uint8Array(await wasm.arrayBuffer());
    assert(bytes.length <= WASM_SIZE_LIMIT, `${bytes.length} bytes`);
    assert(WebAssembly.validate(bytes));

    assertEquals(await (await get("/")).text(), "<h1>their site</h1>");
  } finally {
    await Deno.remove(site, { recursive: true });
  }
});

Deno.test("the demo page embeds the script with one tag under a CSP without inline code", async () => {
  await using t = await startTestServer();
  const html = await (await fetch(`${t.attest}/`)).text();
  assertEquals(html.match(/<script\b/g)?.length, 2, "the embed tag and the demo's own file");
  assertStringIncludes(html, '<script src="palisade-attest.js" async></script>');
  const csp = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1] ?? "";
  assertStringIncludes(csp, "script-src 'self' 'wasm-unsafe-eval'");
  assert(!csp.includes("unsafe-inline"), csp);
  for (const file of ["demo.js", "demo.css", "favicon.svg"]) {
    const res = await fetch(`${t.attest}/${file}`);
    await res.body?.cancel();
    assertEquals(res.status, 200, file);
  }
});
