/** Both APIs' version endpoints name the /api/v1 compatibility policy, which exists (issue 26, point 5). */
import { assert, assertEquals } from "../assert.ts";
import { call, startTestServer } from "../helpers/test_server.ts";

Deno.test("the admin and DNS API version endpoints link the compatibility policy, without a credential", async () => {
  await using t = await startTestServer();
  for (const url of [`${t.admin}/api/v1/system/version`, `${t.dnsApi}/api/v1/version`]) {
    const res = await call(url);
    assertEquals(res.status, 200, url);
    assertEquals([res.body.api, res.body.compatibility], ["v1", "docs/compatibility.md"], url);
  }
  const policy = await Deno.readTextFile(new URL("../../docs/compatibility.md", import.meta.url));
  assert(policy.includes("## What needs `/api/v2`"));
});
