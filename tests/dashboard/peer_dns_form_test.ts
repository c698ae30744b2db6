/**
 * The interface page sets and shows peer names in DNS (docs/tunnels.md):
 * the settings form's zone field publishes, an unknown zone comes back
 * with the error next to the field, and an empty field stops publishing.
 */
import { assertEquals, assertStringIncludes } from "../assert.ts";
import { fieldError, getPage, postForm } from "../helpers/dashboard.ts";
import { startTestServer } from "../helpers/test_server.ts";

Deno.test("the interface page's settings form sets, refuses and clears the peer names' zone", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  await t.services.dns.createZone("test", { name: "vpn.test", admin_email: "h@vpn.test" });
  const iface = await t.services.tunnels.interfaces.create(
    { name: "wg1", address_v4: "10.8.0.1/24" },
    "test",
  );
  const form = { _action: "update", name: "wg1", address_v4: "10.8.0.1/24", mtu: "1420" };
  let html = (await getPage(t, `/tunnels/${iface.id}`, cookie)).html;
  assertStringIncludes(html, "not published");

  let res = await postForm(t, `/tunnels/${iface.id}`, { ...form, dns_zone: "nope.test" }, cookie);
  assertEquals(res.status, 404);
  assertStringIncludes(fieldError(await res.text(), "f-dns_zone") ?? "", 'zone "nope.test"');

  res = await postForm(t, `/tunnels/${iface.id}`, { ...form, dns_zone: "vpn.test" }, cookie);
  assertEquals(res.status, 303);
  assertEquals((await t.services.tunnels.interfaces.get(iface.id)).dns_zone, "vpn.test");
  html = (await getPage(t, `/tunnels/${iface.id}`, cookie)).html;
  assertStringIncludes(html, "&lt;peer>.vpn.test");

  res = await postForm(t, `/tunnels/${iface.id}`, { ...form, dns_zone: "" }, cookie);
  assertEquals(res.status, 303);
  assertEquals((await t.services.tunnels.interfaces.get(iface.id)).dns_zone, null);
});
