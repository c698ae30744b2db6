/**
 * A zone's history page and its revert (docs/dns.md, "History and revert"):
 * a zone edited three times is put back to its second version from the page
 * and `dig` against the server's DNS listener answers with it; the revert is
 * itself in the history and the audit log; a revert that later changes
 * overlap is refused with the reason on the page, and nothing changes.
 */
import { assert, assertEquals, assertStringIncludes } from "../assert.ts";
import { getPage, postForm } from "../helpers/dashboard.ts";
import { auditRows } from "../helpers/dns_api.ts";
import { startTestServer, type TestServer } from "../helpers/test_server.ts";
import { dig } from "../dns/dig.ts";

const ZONE = "example.org";
const HISTORY = `/zones/${ZONE}/history`;

/** Three edits of www's A record: created .1, changed to .2, changed to .3. */
async function editedThrice(t: TestServer) {
  const { dns } = t.services;
  await dns.createZone("alice", { name: ZONE, admin_email: `hostmaster@${ZONE}` });
  const rec = await dns.createRecord("alice", ZONE, {
    domain: `www.${ZONE}`,
    type: "A",
    value: "192.0.2.1",
  });
  await dns.updateRecord("bob", ZONE, rec.id, { value: "192.0.2.2" });
  await dns.updateRecord("carol", ZONE, rec.id, { value: "192.0.2.3" });
  return rec.id;
}

/** The change ids the history page links a revert for, newest first. */
const revertLinks = (html: string) =>
  [...html.matchAll(/href="\/zones\/example\.org\/history\/(\d+)\/revert"/g)].map((m) =>
    Number(m[1])
  );

const wwwA = async (t: TestServer) => (await dig(t.dns.port, [`www.${ZONE}`, "A"])).answer;

Deno.test("a zone edited three times is reverted to its second version from the page, and dig answers with it", async () => {
  await using t = await startTestServer();
  await editedThrice(t);
  const cookie = await t.login();
  assertEquals((await wwwA(t)).map((l) => l.split(" ").pop()), ["192.0.2.3"]);

  let html = (await getPage(t, HISTORY, cookie)).html;
  const ids = revertLinks(html);
  assertEquals(ids.length, 3);
  // Who and what: each change with its diff, newest first.
  assertStringIncludes(html, "By <strong>carol</strong>");
  assertStringIncludes(html, `www.${ZONE}. 3600 A 192.0.2.2</code>`);
  assertStringIncludes(html, `www.${ZONE}. 3600 A 192.0.2.3</code>`);
  assert(html.indexOf("192.0.2.3") < html.indexOf("192.0.2.1"), "newest first");

  const third = ids[0];
  const confirm = await getPage(t, `${HISTORY}/${third}/revert`, cookie);
  assertEquals(confirm.status, 200);
  assertStringIncludes(confirm.html, "Revert change");
  const res = await postForm(t, `${HISTORY}/${third}/revert`, {}, cookie);
  assertEquals(res.status, 303);
  assertEquals(res.headers.get("location"), `${HISTORY}?done=reverted`);

  assertEquals((await wwwA(t)).map((l) => l.split(" ").pop()), ["192.0.2.2"]);
  const list = await t.services.dns.listRecords(ZONE, "A");
  assertEquals(list.records.map((r) => r.value), ["192.0.2.2"]);

  // The revert is the newest change of the history, by the admin, and audited.
  html = (await getPage(t, `${HISTORY}?done=reverted`, cookie)).html;
  assertEquals(revertLinks(html).length, 4);
  assertStringIncludes(html, `Reverted change ${third}`);
  assertStringIncludes(html, `reverting change ${third}`);
  const audit = await auditRows(t, { event_type: "dns.history.reverted" });
  assertEquals(audit.length, 1);
  assertEquals(audit[0].actor, "admin");
  assertStringIncludes(audit[0].message, `Reverted change ${third} of zone "${ZONE}"`);
});

Deno.test("a revert that a later change overlaps is refused on its page and changes nothing", async () => {
  await using t = await startTestServer();
  await editedThrice(t);
  const cookie = await t.login();
  const ids = revertLinks((await getPage(t, HISTORY, cookie)).html);
  const second = ids[1];
  const res = await postForm(t, `${HISTORY}/${second}/revert`, {}, cookie);
  assertEquals(res.status, 409);
  const html = await res.text();
  assertStringIncludes(html, `after change ${second}; revert it first`);
  assertEquals((await wwwA(t)).map((l) => l.split(" ").pop()), ["192.0.2.3"]);
  assertEquals(revertLinks((await getPage(t, HISTORY, cookie)).html).length, 3);
  assertEquals((await auditRows(t, { event_type: "dns.history.reverted" })).length, 0);
});

Deno.test("a viewer sees the history without revert links and cannot revert", async () => {
  await using t = await startTestServer();
  await editedThrice(t);
  const admin = await t.login();
  const id = revertLinks((await getPage(t, HISTORY, admin)).html)[0];
  await t.addUser("vera", "viewer");
  const viewer = await t.login("vera", "vera-password-123");
  const page = await getPage(t, HISTORY, viewer);
  assertEquals(page.status, 200);
  assertEquals(revertLinks(page.html), []);
  assertStringIncludes(page.html, "192.0.2.3");
  const res = await postForm(t, `${HISTORY}/${id}/revert`, {}, viewer);
  assertEquals(res.status, 403);
  assertEquals((await wwwA(t)).map((l) => l.split(" ").pop()), ["192.0.2.3"]);
});
