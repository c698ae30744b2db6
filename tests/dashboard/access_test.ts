/**
 * Roles and cross-site protection of the dashboard: a viewer is shown no
 * control that changes state and is refused by the server anyway; a form
 * posted with the cookie from another origin is refused.
 */
import { assert, assertEquals, assertStringIncludes } from "../assert.ts";
import { getPage, postForm } from "../helpers/dashboard.ts";
import { startTestServer, type TestServer } from "../helpers/test_server.ts";

async function seed(t: TestServer) {
  const { tunnels, dns } = t.services;
  const iface = await tunnels.interfaces.create({ name: "wg1", address_v4: "10.8.0.1/24" }, "test");
  const peer = await tunnels.peers.create(iface.id, { name: "alice" }, "test");
  await dns.createZone("test", { name: "example.org", admin_email: "hostmaster@example.org" });
  const record = await dns.createRecord("test", "example.org", {
    domain: "www.example.org",
    type: "A",
    value: "192.0.2.1",
  });
  const network = await tunnels.networks.create({ name: "lab", cidr: "10.20.0.0/24" }, "test");
  const route = await tunnels.routes.create(
    { destination: "10.50.0.0/24", gateway: "10.8.0.9" },
    "test",
  );
  const rule = await tunnels.firewall.create(
    { name: "ssh", protocol: "tcp", port: 22, action: "accept" },
    "test",
  );
  return {
    iface: iface.id,
    peer: peer.id,
    record: record.id,
    network: network.id,
    route: route.id,
    rule: rule.id,
  };
}

Deno.test("a viewer's POST to every mutating dashboard page is refused with 403", async () => {
  await using t = await startTestServer();
  const ids = await seed(t);
  await t.addUser("vera", "viewer");
  const cookie = await t.login("vera", "vera-password-123");
  const params: Record<string, string> = { id: ids.peer, name: "example.org" };
  let checked = 0;
  const selfService: string[] = [];
  for (const route of t.server.routes.admin) {
    const post = route.module.meta?.POST;
    if (!route.isPage || !post || post.access === "public") continue;
    // A viewer's own API tokens and password: theirs to change (tokens_password_pages_test.ts).
    if (post.access === "viewer") {
      selfService.push(route.pattern);
      continue;
    }
    // Real ids, so a refusal cannot come from a missing resource.
    let path = route.pattern.replace(/:([a-z_]+)/g, (_, p) => params[p] ?? "x");
    if (path.startsWith("/tunnels/")) path = path.replace(ids.peer, ids.iface);
    if (path.startsWith("/zones/example.org/records/")) path = path.replace(ids.peer, ids.record);
    const res = await postForm(t, path, { _action: "enable" }, cookie);
    assertEquals(res.status, 403, `POST ${path}`);
    assertStringIncludes(await res.text(), "This action needs the ", path);
    checked++;
  }
  assert(checked >= 20, `only ${checked} mutating pages found`);
  assertEquals(selfService.sort(), [
    "/account/password",
    "/account/security",
    "/tokens",
    "/tokens/:id/revoke",
  ]);
  assertEquals((await t.services.tunnels.peers.view(ids.peer)).status, "enabled");
  assertEquals((await t.services.dns.listZones()).length, 1);
  assertEquals((await t.services.tunnels.firewall.get(ids.rule)).enabled, true);
  assertEquals((await t.services.tunnels.networks.list()).length, 2);
  assertEquals((await t.services.tunnels.routes.list()).length, 1);
});

Deno.test("a viewer's pages render no form, button or link that changes state", async () => {
  await using t = await startTestServer();
  const ids = await seed(t);
  await t.addUser("vera", "viewer");
  const cookie = await t.login("vera", "vera-password-123");
  const pages = [
    "/",
    "/tunnels",
    `/tunnels/${ids.iface}`,
    "/peers",
    `/peers/${ids.peer}`,
    "/zones",
    "/zones/example.org",
    "/networks",
    `/networks/${ids.network}`,
    "/routes",
    "/firewall",
    "/audit",
    "/attestation",
    "/diagnostics",
    "/reconcile",
    "/settings",
  ];
  for (const path of pages) {
    const { status, html } = await getPage(t, path, cookie);
    assertEquals(status, 200, path);
    const posts = [...html.matchAll(/<form\b[^>]*>/g)].map((m) => m[0])
      .filter((f) => /method="post"/i.test(f) && !f.includes('action="/logout"'));
    const submits = (html.match(/<button[^>]*type="submit"[^>]*>/g) ?? []).length -
      (html.match(/<button[^>]*type="submit" class="link"/g) ?? []).length -
      (html.match(/>Filter</g) ?? []).length;
    assertEquals(submits, 0, `${path} has a submit button`);
    assertEquals(posts, [], `${path} has a POST form`);
    for (const bad of ["/new", "/delete", "/revoke", "/config", "/qr", 'href="/users"']) {
      assert(!html.includes(bad), `${path} links to ${bad}`);
    }
  }
  for (
    const path of [
      "/users",
      "/console",
      "/peers/new",
      `/peers/${ids.peer}/config`,
      `/tunnels/${ids.iface}/delete`,
      `/networks/${ids.network}/delete`,
      `/routes/${ids.route}/delete`,
      `/firewall/${ids.rule}/delete`,
      "/reconcile/apply",
    ]
  ) {
    assertEquals((await getPage(t, path, cookie)).status, 403, path);
  }
});

Deno.test("an operator changes tunnels, networks, routes, firewall rules and zones but has no users section", async () => {
  await using t = await startTestServer();
  await t.addUser("olga", "operator");
  const cookie = await t.login("olga", "olga-password-123");
  const home = await getPage(t, "/", cookie);
  assert(!home.html.includes('href="/users"'), "no Users entry in the navigation");
  assertEquals((await getPage(t, "/users", cookie)).status, 403);
  const res = await postForm(t, "/tunnels", { name: "wg1", address_v4: "10.8.0.1/24" }, cookie);
  assertEquals(res.status, 303);
  for (
    const [path, form] of [
      ["/networks", { name: "lab", cidr: "10.20.0.0/24" }],
      ["/routes", { destination: "10.50.0.0/24", gateway: "10.8.0.9" }],
      ["/firewall", { _action: "create", name: "ssh", protocol: "tcp", action: "accept" }],
    ] as const
  ) {
    assertEquals((await postForm(t, path, form, cookie)).status, 303, path);
  }
  const settings = await postForm(t, "/settings", { "wireguard.server_host": "x.org" }, cookie);
  assertEquals(settings.status, 403);
});

Deno.test("a dashboard form posted with the cookie from another origin is refused with 403", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  const form = { name: "wg1", address_v4: "10.8.0.1/24" };
  for (
    const [what, opts] of [
      ["another origin", { origin: "http://evil.example" }],
      // Same host and port, another scheme: a different origin (RFC 6454).
      ["the same host over https", { origin: t.admin.replace("http:", "https:") }],
      ["an opaque origin", { origin: "null" }],
      ["a cross-site fetch without Origin", {
        origin: null,
        headers: { "sec-fetch-site": "cross-site" },
      }],
    ] as const
  ) {
    const res = await postForm(t, "/tunnels", form, cookie, opts);
    assertEquals(res.status, 403, what);
    assertStringIncludes(await res.text(), "Cross-site request refused", what);
  }
  assertEquals(await t.services.tunnels.interfaces.list(), []);
  // Logging out is a state change too.
  const out = await postForm(t, "/logout", {}, cookie, { origin: "http://evil.example" });
  assertEquals(out.status, 403);
  assertEquals((await getPage(t, "/", cookie)).status, 200, "the session survived");
});

Deno.test("a form posted from the dashboard's own origin passes, and behind a TLS proxy its https origin does", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  let res = await postForm(t, "/tunnels", { name: "wg1", address_v4: "10.8.0.1/24" }, cookie, {
    origin: t.admin,
  });
  assertEquals(res.status, 303, "http origin on the http listener");
  res = await postForm(t, "/tunnels", { name: "wg2", address_v4: "10.9.0.1/24" }, cookie, {
    origin: t.admin.replace("http:", "https:"),
    headers: { "x-forwarded-proto": "https" },
  });
  assertEquals(res.status, 303, "https origin forwarded by a TLS-terminating proxy");
});
