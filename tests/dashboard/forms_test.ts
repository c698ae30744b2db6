/**
 * The dashboard's forms without a browser: what a browser would post
 * (urlencoded, cookie, Origin), answered with 303 on success and the page
 * again, with the message next to the field, when the change is refused.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../assert.ts";
import { fieldError, getPage, postForm } from "../helpers/dashboard.ts";
import { startTestServer } from "../helpers/test_server.ts";

const PEER = {
  name: "",
  profile: "full-tunnel",
  address: "",
  dns: "",
  keepalive: "",
  mtu: "",
  allowed_ips: "",
  public_key: "",
  preshared_key: "true",
  enabled: "true",
};

Deno.test("interface forms redirect with 303 on success and re-render a refused one with the error next to its field", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  let res = await postForm(t, "/tunnels", { name: "wg1", address_v4: "10.8.0.1/24" }, cookie);
  assertEquals(res.status, 303);
  const location = res.headers.get("location")!;
  assertMatch(location, /^\/tunnels\/[0-9a-f-]{36}\?done=created$/);
  const id = location.split("/")[2].split("?")[0];

  // Same address: a 409 from the service, shown next to the address field.
  res = await postForm(t, "/tunnels", { name: "wg2", address_v4: "10.8.0.1/24" }, cookie);
  assertEquals(res.status, 409);
  let html = await res.text();
  assertStringIncludes(fieldError(html, "f-address_v4") ?? "", "10.8.0.1/24 is already used");
  assertStringIncludes(html, 'value="wg2"', "typed values are kept");

  res = await postForm(t, "/tunnels", { name: "Bad Name", address_v4: "10.9.0.1/24" }, cookie);
  assertEquals(res.status, 400);
  assertStringIncludes(fieldError(await res.text(), "f-name") ?? "", "must be 1 to 15 of a-z");

  res = await postForm(
    t,
    "/tunnels",
    { name: "wg3", address_v4: "10.7.0.1/24", mtu: "99" },
    cookie,
  );
  assertEquals(res.status, 422);
  assertStringIncludes(fieldError(await res.text(), "f-mtu") ?? "", "mtu 99 is outside 1280-9000");

  res = await postForm(t, `/tunnels/${id}`, {
    _action: "update",
    name: "wg1",
    address_v4: "10.8.0.1/24",
    listen_port: "abc",
    mtu: "1420",
  }, cookie);
  assertEquals(res.status, 400);
  assertEquals(fieldError(await res.text(), "f-listen_port"), 'Enter a whole number, not "abc"');

  for (const action of ["disable", "enable", "restart"]) {
    res = await postForm(t, `/tunnels/${id}`, { _action: action }, cookie);
    assertEquals(res.status, 303, action);
    assertEquals(
      res.headers.get("location"),
      `/tunnels/${id}?done=${action}d`.replace("restartd", "restarted"),
    );
  }
  html = (await getPage(t, `/tunnels/${id}?done=restarted`, cookie)).html;
  assertStringIncludes(html, "Interface restarted from the stored state.");

  // wg0 is protected: its page offers no delete, and the service refuses anyway (403).
  const wg0 = await t.services.tunnels.interfaces.create(
    { name: "wg0", address_v4: "10.66.0.1/24" },
    "test",
  );
  html = (await getPage(t, `/tunnels/${wg0.id}`, cookie)).html;
  assert(!html.includes(`/tunnels/${wg0.id}/delete`), "no delete link for wg0");
  res = await postForm(t, `/tunnels/${wg0.id}/delete`, {}, cookie);
  assertEquals(res.status, 403);
  assertStringIncludes(await res.text(), "protected default interface");

  res = await postForm(t, `/tunnels/${id}/delete`, {}, cookie);
  assertEquals(res.status, 303);
  assertEquals(await res.headers.get("location"), "/tunnels?done=deleted");
  assertEquals((await t.services.tunnels.interfaces.list()).map((i) => i.name), ["wg0"]);
});

Deno.test("peer forms create, change, revoke and delete a peer; the config and QR are downloads", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  const iface = await t.services.tunnels.interfaces.create(
    { name: "wg1", address_v4: "10.8.0.1/24" },
    "test",
  );
  let res = await postForm(
    t,
    "/peers/new",
    { ...PEER, interface_id: iface.id, name: 'bad"name' },
    cookie,
  );
  assertEquals(res.status, 400);
  assertStringIncludes(fieldError(await res.text(), "f-name") ?? "", "must be 1 to 64 ASCII");

  res = await postForm(
    t,
    "/peers/new",
    { ...PEER, interface_id: iface.id, address: "10.9.9.9" },
    cookie,
  );
  assertEquals(res.status, 400, "the name is required");

  res = await postForm(t, "/peers/new", {
    ...PEER,
    interface_id: iface.id,
    name: "alice",
    address: "10.9.0.5",
  }, cookie);
  assertEquals(res.status, 422);
  assertStringIncludes(fieldError(await res.text(), "f-address") ?? "", "is not a host address");

  res = await postForm(t, "/peers/new", { ...PEER, interface_id: "nope", name: "alice" }, cookie);
  assertEquals(res.status, 404);
  assertStringIncludes(fieldError(await res.text(), "f-interface_id") ?? "", "does not exist");

  res = await postForm(t, "/peers/new", { ...PEER, interface_id: iface.id, name: "alice" }, cookie);
  assertEquals(res.status, 303);
  const id = res.headers.get("location")!.split("/")[2].split("?")[0];

  // Without a public host the download explains what is missing, as a page.
  let page = await getPage(t, `/peers/${id}/config`, cookie);
  assertEquals(page.status, 422);
  assertStringIncludes(page.html, "no server endpoint");
  await t.services.settings.put({ key: "wireguard.server_host", value: "vpn.example.org" }, "test");
  const conf = await fetch(`${t.admin}/peers/${id}/config`, { headers: { cookie } });
  assertEquals(conf.status, 200);
  assertEquals(await conf.headers.get("content-disposition"), 'attachment; filename="alice.conf"');
  assertEquals(await conf.headers.get("cache-control"), "no-store");
  const text = await conf.text();
  assertStringIncludes(text, "[Interface]");
  assertStringIncludes(text, "Endpoint = vpn.example.org:51820");
  const svg = await fetch(`${t.admin}/peers/${id}/qr?format=svg`, { headers: { cookie } });
  assertEquals(await svg.headers.get("content-type"), "image/svg+xml");
  assertStringIncludes(await svg.text(), "<svg");
  page = await getPage(t, `/peers/${id}/qr`, cookie);
  assertStringIncludes(page.html, 'src="data:image/svg+xml;base64,');

  res = await postForm(t, `/peers/${id}`, {
    _action: "update",
    name: "alice",
    profile: "split-tunnel",
    address: "10.8.0.2",
    dns: "10.8.0.1",
    keepalive: "70000",
    mtu: "",
    allowed_ips: "",
  }, cookie);
  assertEquals(res.status, 422);
  assertStringIncludes(fieldError(await res.text(), "f-keepalive") ?? "", "outside 0-65535");
  res = await postForm(t, `/peers/${id}`, {
    _action: "update",
    name: "alice",
    profile: "split-tunnel",
    address: "10.8.0.2",
    dns: "10.8.0.1",
    keepalive: "25",
    mtu: "",
    allowed_ips: "",
    preshared_key: "true",
  }, cookie);
  assertEquals(res.status, 303);
  const peer = await t.services.tunnels.peers.view(id);
  assertEquals([peer.profile, peer.dns, peer.keepalive, peer.allowed_ips], [
    "split-tunnel",
    "10.8.0.1",
    25,
    "10.8.0.0/24",
  ]);

  res = await postForm(t, `/peers/${id}`, { _action: "disable" }, cookie);
  assertEquals(await res.headers.get("location"), `/peers/${id}?done=disabled`);
  assertEquals((await t.services.tunnels.peers.view(id)).status, "disabled");
  res = await postForm(t, `/peers/${id}/revoke`, {}, cookie);
  assertEquals(await res.headers.get("location"), `/peers/${id}?done=revoked`);
  // A revoked peer cannot be enabled: the page says why, with the service's status.
  res = await postForm(t, `/peers/${id}`, { _action: "enable" }, cookie);
  assertEquals(res.status, 409);
  assertStringIncludes(await res.text(), "it is revoked");
  page = await getPage(t, `/peers/${id}`, cookie);
  assert(!page.html.includes(`/peers/${id}/config"`), "no download for a revoked peer");
  res = await postForm(t, `/peers/${id}/delete`, {}, cookie);
  assertEquals(await res.headers.get("location"), "/peers?done=deleted");
  assertEquals(await t.services.tunnels.peers.count(), 0);
});

Deno.test("zone forms create a zone, add, edit and delete records, import and export a zone file", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  let res = await postForm(t, "/zones", {
    _action: "create",
    name: "example.org",
    admin_email: "not-an-address",
  }, cookie);
  assertEquals(res.status, 400);
  assertStringIncludes(fieldError(await res.text(), "zc-admin_email") ?? "", "not a valid e-mail");
  const zone = { _action: "create", name: "example.org", admin_email: "hostmaster@example.org" };
  res = await postForm(t, "/zones", zone, cookie);
  assertEquals(res.status, 303);
  assertEquals(await res.headers.get("location"), "/zones/example.org?done=created");
  res = await postForm(t, "/zones", zone, cookie);
  assertEquals(res.status, 409);
  assertEquals(fieldError(await res.text(), "zc-name"), 'Zone "example.org" already exists');

  const add = (f: Record<string, string>) =>
    postForm(t, "/zones/example.org", { _action: "add", ttl: "", ...f }, cookie);
  res = await add({ domain: "www", type: "A", value: "192.0.2.10" });
  assertEquals(res.status, 303);
  res = await add({ domain: "www", type: "A", value: "192.0.2.300" });
  assertEquals(res.status, 400);
  assertStringIncludes(fieldError(await res.text(), "ra-value") ?? "", "not an IPv4 address");
  res = await add({ domain: "mail.example.com.", type: "A", value: "192.0.2.11" });
  assertEquals(res.status, 422);
  assertStringIncludes(fieldError(await res.text(), "ra-domain") ?? "", "outside zone");
  res = await add({ domain: "www", type: "CNAME", value: "example.org" });
  assertEquals(res.status, 409);

  const www = (await t.services.dns.listRecords("example.org", "A")).records[0];
  assertEquals(www.domain, "www.example.org");
  const page = await getPage(t, "/zones/example.org?type=A", cookie);
  assertStringIncludes(page.html, `data-record-id="${www.id}"`);
  assert(!page.html.includes("<code>SOA</code>"), "the type filter leaves the SOA out");

  res = await postForm(t, `/zones/example.org/records/${www.id}`, {
    value: "192.0.2.20",
    ttl: "-1",
  }, cookie);
  assertEquals(res.status, 400);
  assertStringIncludes(fieldError(await res.text(), "f-ttl") ?? "", "ttl");
  res = await postForm(t, `/zones/example.org/records/${www.id}`, {
    value: "192.0.2.20",
    ttl: "600",
  }, cookie);
  assertEquals(res.headers.get("location"), "/zones/example.org?done=record_updated");
  assertEquals((await t.services.dns.getRecord("example.org", www.id)).value, "192.0.2.20");

  res = await postForm(t, "/zones/example.org", {
    _action: "import",
    text: "$ORIGIN example.org.\nmail 300 IN A 192.0.2.25\nbroken line here\n",
  }, cookie);
  assertEquals(res.status, 400);
  assertMatch(fieldError(await res.text(), "zi-text") ?? "", /^Line 3/);
  res = await postForm(t, "/zones/example.org", {
    _action: "import",
    text: "$ORIGIN example.org.\nmail 300 IN A 192.0.2.25\n",
  }, cookie);
  assertEquals(
    await res.headers.get("location"),
    "/zones/example.org?done=imported&added=1&skipped=0",
  );

  const exported = await fetch(`${t.admin}/zones/example.org/export`, { headers: { cookie } });
  assertEquals(
    exported.headers.get("content-disposition"),
    'attachment; filename="example.org.zone"',
  );
  assertStringIncludes(await exported.text(), "192.0.2.25");

  res = await postForm(t, `/zones/example.org/records/${www.id}/delete`, {}, cookie);
  assertEquals(await res.headers.get("location"), "/zones/example.org?done=record_deleted");
  res = await postForm(t, "/zones/example.org/delete", {}, cookie);
  assertEquals(res.headers.get("location"), "/zones?done=deleted");
  assertEquals(await t.services.dns.listZones(), []);
});

Deno.test("the users page creates users, shows zod errors by field and refuses to demote the last administrator", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  let res = await postForm(t, "/users", {
    _action: "create",
    username: "bob smith",
    email: "x",
    password: "short",
    role: "operator",
  }, cookie);
  assertEquals(res.status, 400);
  let html = await res.text();
  assertStringIncludes(fieldError(html, "f-username") ?? "", "Username must be 1-64");
  assertStringIncludes(fieldError(html, "f-password") ?? "", "at least 12 characters");
  assert(fieldError(html, "f-email"), "the e-mail error is shown too");
  res = await postForm(t, "/users", {
    _action: "create",
    username: "bob",
    email: "",
    password: "bob-password-123",
    role: "operator",
  }, cookie);
  assertEquals(await res.headers.get("location"), "/users?done=created");

  const admin = (await t.services.users.list()).find((u) => u.username === "admin")!;
  res = await postForm(t, "/users", { _action: "role", user_id: admin.id, role: "viewer" }, cookie);
  assertEquals(res.status, 422);
  html = await res.text();
  assertStringIncludes(
    fieldError(html, `role-${admin.id}`) ?? "",
    'Cannot demote "admin": it is the last administrator',
  );
  const bob = (await t.services.users.list()).find((u) => u.username === "bob")!;
  res = await postForm(t, "/users", { _action: "role", user_id: bob.id, role: "viewer" }, cookie);
  assertEquals(await res.headers.get("location"), "/users?done=role");
  assertEquals((await t.services.users.get(bob.id)).role, "viewer");
});
