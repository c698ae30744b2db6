/**
 * Webhook URLs are refused before anything is stored (docs/webhooks.md,
 * "Which URLs are allowed"): schemes other than http(s), credentials,
 * loopback and link-local targets (literal or by name), and the check runs
 * again before each delivery, so a name that starts resolving to loopback
 * later is refused then (DNS rebinding).
 */
import { assertEquals, assertStringIncludes } from "../assert.ts";
import { apiClient } from "../helpers/api_client.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { checkTarget, localKind, parseWebhookUrl } from "../../lib/webhooks/url_guard.ts";
import { ValidationError } from "../../lib/errors.ts";

async function codeOf(f: () => unknown): Promise<string | undefined> {
  try {
    await f();
  } catch (err) {
    if (err instanceof ValidationError) return `${err.field}:${err.code}`;
    throw err;
  }
  return undefined;
}

Deno.test("webhook URLs: refused over the API for a scheme, credentials, loopback and link-local; nothing stored", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  const cases: [string, string][] = [
    ["ftp://hooks.example/x", "is not http or https"],
    ["file:///etc/passwd", "is not http or https"],
    ["https://user:pw@hooks.example/x", "must not carry credentials"],
    ["http://127.0.0.1:8000/api", "loopback"],
    ["http://2130706433/", "loopback"],
    ["http://localhost:8000/", "loopback"],
    ["http://[::1]/", "loopback"],
    ["http://[::ffff:127.0.0.1]/", "loopback"],
    ["http://169.254.169.254/latest/meta-data/", "link-local"],
    ["http://[fe80::1]/", "link-local"],
    ["http://0.0.0.0/", "unspecified"],
  ];
  for (const [url, text] of cases) {
    const res = await api.post("/webhooks", { url, events: ["zone.changed"] });
    assertEquals(res.status, 400, url);
    assertStringIncludes(String(res.body.error), text, url);
  }
  assertEquals((await api.get("/webhooks")).body.webhooks, []);
});

Deno.test("webhook URLs: private addresses are allowed, loopback only with the setting; a rebound name is refused at delivery", async () => {
  const none = () => Promise.resolve([] as string[]);
  assertEquals(localKind("10.1.2.3"), null);
  assertEquals(localKind("192.168.1.10"), null);
  assertEquals(localKind("fd00::1"), null);
  assertEquals(
    await codeOf(() => checkTarget(new URL("http://10.0.0.1/"), false, none)),
    undefined,
  );
  assertEquals(
    await codeOf(() => checkTarget(new URL("http://127.0.0.1/"), true, none)),
    undefined,
  );
  assertEquals(
    await codeOf(() => checkTarget(new URL("http://nowhere.invalid/"), false, none)),
    "url:url_unresolvable",
  );
  // The same name, first public, then rebound to loopback: the second check refuses it.
  let answer = ["93.184.216.34"];
  const resolver = () => Promise.resolve(answer);
  const url = parseWebhookUrl("https://hooks.example/x");
  assertEquals(await codeOf(() => checkTarget(url, false, resolver)), undefined);
  answer = ["93.184.216.34", "127.0.0.1"];
  assertEquals(await codeOf(() => checkTarget(url, false, resolver)), "url:url_local_address");
});

Deno.test("webhook URLs: an address in a long or uncompressed IPv6 form is classified like its short form", () => {
  assertEquals(localKind("0:0:0:0:0:0:0:1"), "loopback");
  assertEquals(localKind("0000::1"), "loopback");
  assertEquals(localKind("0:0:0:0:0:ffff:7f00:1"), "loopback");
  assertEquals(localKind("0:0:0:0:0:0:0:0"), "unspecified");
  assertEquals(localKind("0:0:0:0:0:ffff:a9fe:a9fe"), "link-local");
});
