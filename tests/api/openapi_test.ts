import { assert, assertEquals } from "../assert.ts";
import { call, startTestServer } from "../helpers/test_server.ts";
import { openApiPath } from "../../server/http/openapi.ts";
import { METHODS } from "../../server/http/define.ts";

Deno.test("each API listener's OpenAPI 3.1 document lists every API route of the manifest", async () => {
  await using t = await startTestServer();
  const docs = {
    admin: `${t.admin}/api/v1/openapi.json`,
    attest: `${t.attest}/openapi.json`,
    dnsApi: `${t.dnsApi}/api/v1/openapi.json`,
  };
  for (const [listener, url] of Object.entries(docs)) {
    const doc = await call(url);
    assertEquals(doc.status, 200, url);
    assertEquals(doc.body.openapi, "3.1.0");
    const paths = doc.body.paths as Record<
      string,
      Record<string, { responses: object; security: unknown[] }>
    >;
    let expected = 0;
    for (const route of t.server.routes[listener as keyof typeof t.server.routes]) {
      if (route.isPage) continue;
      for (const method of METHODS) {
        const meta = route.module.meta?.[method];
        if (!meta || meta.hidden) continue;
        expected++;
        const op = paths[openApiPath(route.pattern)]?.[method.toLowerCase()];
        assert(op, `${listener}: ${method} ${route.pattern} missing from ${url}`);
        assertEquals(
          op.security.length === 0,
          meta.access === "public",
          `${method} ${route.pattern} security`,
        );
        if (meta.body) {
          assert((op as { requestBody?: unknown }).requestBody, `${method} ${route.pattern} body`);
        }
      }
    }
    const documented = Object.values(paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
    assertEquals(documented, expected, `${listener}: documented operations`);
  }
});
