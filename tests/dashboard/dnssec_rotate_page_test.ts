/**
 * The zone page's "Rotate ZSK" action: a confirm page that explains the
 * pre-publish rollover, a POST that starts it, and the panel showing the
 * rollover's completion date and the new key published; viewers cannot.
 */
import { assert, assertEquals, assertStringIncludes } from "../assert.ts";
import { getPage, postForm } from "../helpers/dashboard.ts";
import { startTestServer } from "../helpers/test_server.ts";

const ZONE = "rotate.org";
const PAGE = `/zones/${ZONE}`;

Deno.test("a ZSK rollover starts from its confirmation page and the panel shows it under way", async () => {
  await using t = await startTestServer();
  await t.services.dns.createZone("test", { name: ZONE, admin_email: `hostmaster@${ZONE}` });
  await t.services.dns.setDnssec("test", ZONE, { enable: true, algorithm: "ED25519" });
  const cookie = await t.login();
  assertStringIncludes((await getPage(t, PAGE, cookie)).html, `href="${PAGE}/dnssec/rotate"`);

  const ask = await getPage(t, `${PAGE}/dnssec/rotate`, cookie);
  assertEquals(ask.status, 200);
  assertStringIncludes(ask.html, "nothing changes at the");
  assertEquals((await t.services.dns.dnssecStatus(ZONE)).rollover, null, "asking changes nothing");

  const res = await postForm(t, `${PAGE}/dnssec/rotate`, {}, cookie);
  assertEquals([res.status, res.headers.get("location")], [303, `${PAGE}?done=dnssec_rotated`]);
  const status = await t.services.dns.dnssecStatus(ZONE);
  assert(status.rollover !== null, "a rollover is under way");
  const zsks = status.keys.filter((k) => k.key_type === "ZSK").map((k) => k.state).sort();
  assertEquals(zsks, ["active", "published"]);

  const html = (await getPage(t, `${PAGE}?done=dnssec_rotated`, cookie)).html;
  assertStringIncludes(html, "ZSK rollover started");
  assertStringIncludes(html, `<time datetime="${status.rollover!.completion_date}"`);

  // A second one while the first runs is refused on the page, and nothing changes.
  const again = await postForm(t, `${PAGE}/dnssec/rotate`, {}, cookie);
  assertEquals(again.status, 409);
  assertEquals((await t.services.dns.dnssecStatus(ZONE)).keys.length, status.keys.length);

  await t.addUser("vera", "viewer");
  const viewer = await t.login("vera", "vera-password-123");
  assert(!(await getPage(t, PAGE, viewer)).html.includes("/dnssec/rotate"));
  assertEquals((await postForm(t, `${PAGE}/dnssec/rotate`, {}, viewer)).status, 403);
});
