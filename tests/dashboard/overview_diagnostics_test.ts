/**
 * The overview's health section is the diagnostics summary (the run of
 * GET /api/v1/diagnostics/all): one line per subsystem with its status as a
 * word, its most telling message and a link to that subsystem's view; a
 * failing subsystem shows as failing.
 */
import { assert, assertEquals, assertStringIncludes } from "../assert.ts";
import { getPage } from "../helpers/dashboard.ts";
import { startTestServer } from "../helpers/test_server.ts";

/** The text of the overview's line of `name` (tags removed, spaces collapsed), and its HTML. */
function line(html: string, name: string): { text: string; html: string } | null {
  const m = new RegExp(`<li[^>]*data-subsystem="${name}"[^>]*>([\\s\\S]*?)</li>`).exec(html);
  if (!m) return null;
  return { text: m[1].replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim(), html: m[1] };
}

const SUBSYSTEMS = ["database", "tunnels", "firewall", "routes", "dns", "attestation", "backups"];

Deno.test("overview: one line per diagnostics subsystem with its status word, message and link, and a failing one shows", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();

  let page = await getPage(t, "/", cookie);
  assertEquals(page.status, 200);
  for (const name of SUBSYSTEMS) {
    const l = line(page.html, name);
    assert(l, `a line for ${name}`);
    assertStringIncludes(l.html, `href="/diagnostics?subsystem=${name}"`);
    assert(
      / (ok|warn|fail|off) /.test(` ${l.text} `),
      `${name} shows its status as a word: ${l.text}`,
    );
  }
  // The none driver of the tests: the host layer is off, not failing.
  assertStringIncludes(line(page.html, "tunnels")!.text, "tunnels off");
  assertStringIncludes(line(page.html, "dns")!.text, "dns ok");
  assertStringIncludes(line(page.html, "database")!.text, "database ok The store answers queries");

  await t.server.dns.close();
  page = await getPage(t, "/", cookie);
  assertEquals(page.status, 200);
  const dns = line(page.html, "dns")!.text;
  assert(dns.startsWith("dns fail The DNS listener on "), dns);
  assertStringIncludes(dns, "stopped serving UDP and TCP");
  assertStringIncludes(page.html, 'Overall <span class="badge');
  assert(/Overall <span class="badge [a-z]+">fail<\/span>/.test(page.html), "overall fail");
});
