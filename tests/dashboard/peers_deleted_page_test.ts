/**
 * A deleted peer's history stays reachable from the dashboard: the Peers page
 * lists it under "Recently deleted", linking to `/peers/{id}/history`, and
 * says that its deletion cannot be reverted (its keys are not kept).
 */
import { assert, assertEquals } from "../assert.ts";
import { getPage, seedPeers } from "../helpers/dashboard.ts";
import { startTestServer } from "../helpers/test_server.ts";

const section = (html: string) =>
  /<section aria-labelledby="recently-deleted"[\s\S]*?<\/section>/.exec(html)?.[0] ?? null;

Deno.test("peers page: a deleted peer is listed under Recently deleted, linking to its history", async () => {
  await using t = await startTestServer();
  const { tunnels } = t.services;
  const { peerIds } = await seedPeers(t, 2);
  const [gone, kept] = peerIds;
  const cookie = await t.login();

  const before = await getPage(t, "/peers", cookie);
  assertEquals(before.status, 200);
  assertEquals(section(before.html), null, "no section while nothing is deleted");

  await tunnels.peers.delete(gone, "test");
  const after = await getPage(t, "/peers", cookie);
  assertEquals(after.status, 200);
  const listed = section(after.html);
  assert(listed, "the Recently deleted section is shown");
  assert(listed.includes(`href="/peers/${gone}/history"`), listed);
  assert(listed.includes(">peer-0000</a>"), listed);
  assert(!listed.includes(kept), "a peer still there is not listed");
  assert(listed.includes("a deleted peer cannot be restored; its history is kept"), listed);

  const history = await getPage(t, `/peers/${gone}/history`, cookie);
  assertEquals(history.status, 200);
  assert(history.html.includes("peer-0000"));
});
