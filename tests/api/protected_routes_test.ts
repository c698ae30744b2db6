/**
 * Every protected route of every listener, taken from the generated manifest
 * (not from a hand-written list), refuses a request without a credential.
 */
import { assert, assertEquals } from "../assert.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { METHODS } from "../../server/http/define.ts";

function samplePath(pattern: string): string {
  return pattern.replace(/:([A-Za-z_][A-Za-z0-9_]*)(\{[^}]*\})?/g, (_, name) => `sample-${name}`);
}

Deno.test("every protected route in the manifest refuses a missing credential (401 JSON, or a login redirect for pages)", async () => {
  await using t = await startTestServer();
  const bases = { admin: t.admin, attest: t.attest, dnsApi: t.dnsApi };
  let checked = 0;
  for (const [listener, routes] of Object.entries(t.server.routes)) {
    for (const route of routes) {
      for (const method of METHODS) {
        const meta = route.module.meta?.[method];
        if (!meta || meta.access === "public") continue;
        const url = `${bases[listener as keyof typeof bases]}${samplePath(route.pattern)}`;
        const res = await fetch(url, {
          method,
          redirect: "manual",
          headers: method === "GET" ? {} : { "Content-Type": "application/json" },
          body: method === "GET" ? undefined : "{}",
        });
        const where = `${listener} ${method} ${route.pattern}`;
        if (route.isPage) {
          assertEquals(res.status, 303, where);
          assert(res.headers.get("location")?.startsWith("/login?next="), where);
          await res.body?.cancel();
        } else {
          assertEquals(res.status, 401, where);
          const body = await res.json();
          assertEquals(body.status, 401, where);
          assertEquals(typeof body.error, "string", where);
        }
        checked++;
      }
    }
  }
  assert(checked >= 10, `only ${checked} protected routes found`);
});
