/**
 * The networks, routes and firewall pages without a browser: forms posted
 * as a browser does, 303 on success, the page again with the message next to
 * the field when the service refuses, and the lists showing what was made.
 */
import { assert, assertEquals, assertStringIncludes } from "../assert.ts";
import { fieldError, formError, getPage, postForm, rowText } from "../helpers/dashboard.ts";
import { startTestServer, type TestServer } from "../helpers/test_server.ts";

/** wg1 on 10.8.0.1/24 with two peers (10.8.0.2 and 10.8.0.3). */
async function interfaceWithPeers(t: TestServer) {
  const { tunnels } = t.services;
  const iface = await tunnels.interfaces.create({ name: "wg1", address_v4: "10.8.0.1/24" }, "test");
  await tunnels.peers.create(iface.id, { name: "alice" }, "test");
  await tunnels.peers.create(iface.id, { name: "bob" }, "test");
  return iface;
}

/** The addresses of the page's available-address list. */
function addresses(html: string): string[] {
  const list = /<ul class="addresses"[^>]*>([\s\S]*?)<\/ul>/.exec(html)?.[1] ?? "";
  return [...list.matchAll(/<code>([^<]+)<\/code>/g)].map((m) => m[1]);
}

const range = (prefix: string, from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, k) => `${prefix}${from + k}`);

Deno.test("networks page: a network is created from the form, listed with its utilization, and refusals sit next to name and cidr", async () => {
  await using t = await startTestServer();
  const iface = await interfaceWithPeers(t);
  const cookie = await t.login();
  const wg1 = (await t.services.tunnels.networks.list()).find((n) => n.interface_id === iface.id)!;

  let res = await postForm(t, "/networks", { name: "lab", cidr: "10.20.1.0/16" }, cookie);
  assertEquals(res.status, 400);
  let html = await res.text();
  assertStringIncludes(fieldError(html, "f-cidr") ?? "", 'write "10.20.0.0/16"');
  assertStringIncludes(html, 'value="10.20.1.0/16"', "typed values are kept");

  res = await postForm(t, "/networks", { name: "lab", cidr: "10.8.0.0/16" }, cookie);
  assertEquals(res.status, 409);
  assertStringIncludes(
    fieldError(await res.text(), "f-cidr") ?? "",
    'cidr 10.8.0.0/16 overlaps network "wg1" (10.8.0.0/24)',
  );

  res = await postForm(t, "/networks", { name: "wg1", cidr: "10.30.0.0/24" }, cookie);
  assertEquals(res.status, 409);
  assertStringIncludes(fieldError(await res.text(), "f-name") ?? "", 'name "wg1" is already used');

  res = await postForm(t, "/networks", { name: "lab", cidr: "10.20.0.0/16" }, cookie);
  assertEquals(res.status, 303);
  const location = res.headers.get("location")!;
  const id = /^\/networks\/([0-9a-f-]{36})\?done=created$/.exec(location)?.[1];
  assert(id, location);

  html = (await getPage(t, location, cookie)).html;
  assertStringIncludes(html, "Network created.");
  assertStringIncludes(html, "0 / 65,534 (0 %)");
  assertEquals(addresses(html), range("10.20.0.", 1, 50));

  html = (await getPage(t, "/networks", cookie)).html;
  assertStringIncludes(
    rowText(html, "data-network-id", id)!,
    "lab 10.20.0.0/16 free 0 / 65,534 (0 %)",
  );
  // The interface's address and two peers of 254: 3 / 254 is 1.18 %.
  assertStringIncludes(
    rowText(html, "data-network-id", wg1.id)!,
    "wg1 10.8.0.0/24 wg1 3 / 254 (1.2 %)",
  );
  assertStringIncludes(html, `href="/tunnels/${iface.id}"`);
});

Deno.test("network page: available addresses skip allocated ones and page on with `after`; deleting asks first and a used network is refused on the page", async () => {
  await using t = await startTestServer();
  const iface = await interfaceWithPeers(t);
  const cookie = await t.login();
  const wg1 = (await t.services.tunnels.networks.list()).find((n) => n.interface_id === iface.id)!;

  let page = await getPage(t, `/networks/${wg1.id}`, cookie);
  assertEquals(page.status, 200);
  // .1 is the interface, .2 and .3 the peers.
  assertEquals(addresses(page.html), range("10.8.0.", 4, 53));
  assertStringIncludes(page.html, `href="/networks/${wg1.id}?after=10.8.0.53"`);
  assert(!page.html.includes(`/networks/${wg1.id}/delete`), "no delete link for a used network");

  page = await getPage(t, `/networks/${wg1.id}?after=10.8.0.53`, cookie);
  assertEquals(addresses(page.html), range("10.8.0.", 54, 103));
  page = await getPage(t, `/networks/${wg1.id}?after=10.8.0.204`, cookie);
  assertEquals(addresses(page.html), range("10.8.0.", 205, 254));
  assert(!page.html.includes('rel="next"'), "the last page has no next link");
  page = await getPage(t, `/networks/${wg1.id}?after=10.9.0.1`, cookie);
  assertEquals(page.status, 400, "an address outside the block");
  assertStringIncludes(
    formError(page.html) ?? "",
    'after "10.9.0.1" is not an address inside 10.8.0.0/24',
  );
  assertEquals(addresses(page.html), range("10.8.0.", 4, 53), "the first page instead");

  // A network an interface uses: the confirmation is refused with the reason, in its status.
  let res = await postForm(t, `/networks/${wg1.id}/delete`, {}, cookie);
  assertEquals(res.status, 409);
  assertEquals(
    formError(await res.text()),
    'Cannot delete network "wg1": it is used by interface "wg1"',
  );
  assertEquals((await t.services.tunnels.networks.list()).length, 1);

  const lab = await t.services.tunnels.networks.create(
    { name: "lab", cidr: "10.20.0.0/24" },
    "test",
  );
  page = await getPage(t, `/networks/${lab.id}`, cookie);
  assertStringIncludes(page.html, `href="/networks/${lab.id}/delete"`);
  page = await getPage(t, `/networks/${lab.id}/delete`, cookie);
  assertStringIncludes(page.html, "Delete network <strong>lab</strong> (10.20.0.0/24)?");
  res = await postForm(t, `/networks/${lab.id}/delete`, {}, cookie);
  assertEquals(res.status, 303);
  assertEquals(await res.headers.get("location"), "/networks?done=deleted");
  assertStringIncludes(
    (await getPage(t, "/networks?done=deleted", cookie)).html,
    "Network deleted.",
  );
  assertEquals((await t.services.tunnels.networks.list()).map((n) => n.name), ["wg1"]);
  assertEquals((await getPage(t, `/networks/${lab.id}`, cookie)).status, 404);
});

Deno.test("routes page: a route is created from the form and listed; refusals sit next to destination, gateway and metric; deleting asks first", async () => {
  await using t = await startTestServer();
  const iface = await interfaceWithPeers(t);
  const other = await t.services.tunnels.interfaces.create(
    { name: "wg2", address_v4: "10.9.0.1/24" },
    "test",
  );
  const cookie = await t.login();
  const form = { destination: "10.50.0.0/24", gateway: "10.8.0.2", metric: "", interface_id: "" };

  const cases: [Record<string, string>, number, string, string][] = [
    [{ destination: "10.50.0.1/24" }, 400, "f-destination", 'write it as "10.50.0.0/24"'],
    [{ gateway: "10.7.0.2" }, 422, "f-gateway", "is not reachable through any managed interface"],
    [{ interface_id: other.id }, 422, "f-gateway", 'is not inside "10.9.0.0/24" of interface'],
    [{ metric: "abc" }, 400, "f-metric", 'Enter a whole number, not "abc"'],
    [{ metric: "-1" }, 422, "f-metric", "metric -1 is outside 0-4294967295"],
  ];
  for (const [change, status, id, message] of cases) {
    const res = await postForm(t, "/routes", { ...form, ...change }, cookie);
    assertEquals(res.status, status, JSON.stringify(change));
    const html = await res.text();
    assertStringIncludes(fieldError(html, id) ?? "", message, JSON.stringify(change));
    for (const v of Object.values(change)) assertStringIncludes(html, `value="${v}"`);
  }

  let res = await postForm(t, "/routes", { ...form, metric: "100" }, cookie);
  assertEquals(res.status, 303);
  assertEquals(await res.headers.get("location"), "/routes?done=created");
  res = await postForm(t, "/routes", { ...form, metric: "100", gateway: "10.8.0.3" }, cookie);
  assertEquals(res.status, 409);
  assertStringIncludes(
    fieldError(await res.text(), "f-destination") ?? "",
    'a route to "10.50.0.0/24" with metric 100 already exists',
  );

  const [route] = await t.services.tunnels.routes.list();
  const { html } = await getPage(t, "/routes?done=created", cookie);
  assertStringIncludes(html, "Route created.");
  assertStringIncludes(rowText(html, "data-route-id", route.id)!, "10.50.0.0/24 10.8.0.2 wg1 100");
  assertStringIncludes(html, `<option value="${iface.id}">wg1 (10.8.0.1/24)</option>`);

  const ask = await getPage(t, `/routes/${route.id}/delete`, cookie);
  assertStringIncludes(ask.html, "Delete the route to <strong>10.50.0.0/24</strong>");
  res = await postForm(t, `/routes/${route.id}/delete`, {}, cookie);
  assertEquals(res.status, 303);
  assertEquals(await res.headers.get("location"), "/routes?done=deleted");
  assertEquals(await t.services.tunnels.routes.list(), []);
});

Deno.test("firewall page: rules are created in order, disabled and enabled by their row buttons, refused by field, and deleted after asking", async () => {
  await using t = await startTestServer();
  const iface = await interfaceWithPeers(t);
  const cookie = await t.login();
  const form = {
    _action: "create",
    name: "ssh",
    protocol: "tcp",
    port: "22",
    action: "accept",
    direction: "input",
    interface_id: "",
    source: "",
  };
  const cases: [Record<string, string>, number, string, string][] = [
    [{ protocol: "icmp" }, 422, "f-port", 'port 22 needs protocol tcp or udp, not "icmp"'],
    [{ port: "70000" }, 422, "f-port", "port 70000 is outside 1-65535"],
    [{ source: "10.0.0.1/8" }, 400, "f-source", 'write it as "10.0.0.0/8"'],
    [{ protocol: "bogus" }, 400, "f-protocol", "must be one of tcp, udp, icmp, any"],
    [{ name: 'no"quotes' }, 400, "f-name", "must be 1 to 64 ASCII letters"],
  ];
  for (const [change, status, id, message] of cases) {
    const res = await postForm(t, "/firewall", { ...form, ...change }, cookie);
    assertEquals(res.status, status, JSON.stringify(change));
    assertStringIncludes(fieldError(await res.text(), id) ?? "", message, JSON.stringify(change));
  }

  let res = await postForm(t, "/firewall", form, cookie);
  assertEquals(res.status, 303);
  assertEquals(await res.headers.get("location"), "/firewall?done=created");
  res = await postForm(t, "/firewall", {
    ...form,
    name: "no ping from outside",
    protocol: "icmp",
    port: "",
    action: "drop",
    direction: "forward",
    interface_id: iface.id,
    source: "192.168.1.0/24",
  }, cookie);
  assertEquals(res.status, 303);
  res = await postForm(t, "/firewall", form, cookie);
  assertEquals(res.status, 409);
  assertStringIncludes(fieldError(await res.text(), "f-name") ?? "", 'name "ssh" is already used');

  const [ssh, ping] = await t.services.tunnels.firewall.list();
  let html = (await getPage(t, "/firewall", cookie)).html;
  assertEquals(
    rowText(html, "data-rule-id", ssh.id),
    "1 ssh input any tcp 22 any accept enabled Disable rule ssh Delete rule ssh History rule ssh",
  );
  assertEquals(
    rowText(html, "data-rule-id", ping.id),
    "2 no ping from outside forward wg1 icmp any 192.168.1.0/24 drop enabled Disable rule no ping from outside Delete rule no ping from outside History rule no ping from outside",
  );

  res = await postForm(t, "/firewall", { _action: "disable", id: ssh.id }, cookie);
  assertEquals(res.status, 303);
  assertEquals(await res.headers.get("location"), "/firewall?done=disabled");
  html = (await getPage(t, "/firewall?done=disabled", cookie)).html;
  assertStringIncludes(html, "Firewall rule disabled");
  assertStringIncludes(rowText(html, "data-rule-id", ssh.id)!, "accept disabled Enable rule ssh");
  assertEquals((await t.services.tunnels.firewall.get(ssh.id)).enabled, false);
  res = await postForm(t, "/firewall", { _action: "enable", id: ssh.id }, cookie);
  assertEquals(await res.headers.get("location"), "/firewall?done=enabled");
  assertEquals((await t.services.tunnels.firewall.get(ssh.id)).enabled, true);

  res = await postForm(t, "/firewall", { _action: "enable", id: "nope" }, cookie);
  assertEquals(res.status, 404);
  assertEquals(formError(await res.text()), 'Firewall rule "nope" does not exist');

  res = await postForm(t, `/firewall/${ping.id}/delete`, {}, cookie);
  assertEquals(res.status, 303);
  assertEquals(await res.headers.get("location"), "/firewall?done=deleted");
  assertEquals((await t.services.tunnels.firewall.list()).map((r) => r.name), ["ssh"]);
});
