/**
 * The peer page's configuration choices without a browser: device and
 * connection change the downloaded file's MTU and keepalive as the profile
 * table of docs/tunnels.md ("Client profiles") says, an endpoint typed there
 * reaches the file, the QR code carries the same file, and an unknown device
 * or connection is refused next to its field.
 */
import { assert, assertEquals, assertStringIncludes } from "../assert.ts";
import { fieldError, getPage } from "../helpers/dashboard.ts";
import { haveSystem, run } from "../helpers/system.ts";
import { startTestServer, type TestServer } from "../helpers/test_server.ts";

async function withPeer(): Promise<{ t: TestServer; cookie: string; id: string }> {
  const t = await startTestServer();
  const { tunnels, settings } = t.services;
  const iface = await tunnels.interfaces.create({ name: "wg1", address_v4: "10.8.0.1/24" }, "t");
  const peer = await tunnels.peers.create(iface.id, { name: "alice" }, "t");
  await settings.put({ key: "wireguard.server_host", value: "vpn.example.org" }, "t");
  return { t, cookie: await t.login(), id: peer.id };
}

/** The `Key = value` lines of a downloaded file that the choices change. */
async function download(t: TestServer, cookie: string, path: string) {
  const res = await fetch(`${t.admin}${path}`, { headers: { cookie } });
  const text = await res.text();
  assertEquals(res.status, 200, text.slice(0, 300));
  const line = (key: string) => new RegExp(`^${key} = (.*)$`, "m").exec(text)?.[1] ?? null;
  return {
    text,
    mtu: line("MTU"),
    keepalive: line("PersistentKeepalive"),
    endpoint: line("Endpoint"),
  };
}

Deno.test("peer page: device and connection set the downloaded file's MTU and PersistentKeepalive, and the endpoint override reaches it", async () => {
  const { t, cookie, id } = await withPeer();
  await using _ = t;

  // Expected figures are the profile table of docs/tunnels.md, not computed here.
  const cases: [string, string, string, string | null][] = [
    ["desktop", "cellular", "1280", "25"],
    ["desktop", "ipv6", "1420", null], // ipv6: keepalive off, no line
    ["mobile", "ipv4", "1420", "25"], // mobile caps 1440 at 1420
    ["router", "ipv6", "1420", "25"], // router raises keepalive to 25
    ["desktop", "restrictive-nat", "1380", "15"],
    ["desktop", "pppoe", "1412", "25"],
  ];
  for (const [device, connection, mtu, keepalive] of cases) {
    const q = `device=${device}&connection=${connection}`;
    const page = await getPage(t, `/peers/${id}?${q}`, cookie);
    assertEquals(page.status, 200);
    // The page says what the choices resolve to and its links carry them.
    const ka = keepalive ? `keepalive every ${keepalive} s` : "keepalive off";
    assertStringIncludes(page.html, `${device} on ${connection}: MTU ${mtu}, ${ka}.`);
    assertStringIncludes(page.html, `href="/peers/${id}/config?${q.replace("&", "&amp;")}"`);
    assertStringIncludes(page.html, `/peers/${id}/qr?${q.replace("&", "&amp;")}`);
    const file = await download(t, cookie, `/peers/${id}/config?${q}`);
    assertEquals([file.mtu, file.keepalive], [mtu, keepalive], `${device}/${connection}`);
  }

  const plain = await download(t, cookie, `/peers/${id}/config`);
  assertEquals(plain.keepalive, null, "no choice: no keepalive");
  assertEquals(plain.endpoint, "vpn.example.org:51820");

  const endpoint = "203.0.113.7:4500";
  const page = await getPage(t, `/peers/${id}?device=mobile&endpoint=${endpoint}`, cookie);
  assertStringIncludes(
    page.html,
    `/peers/${id}/config?device=mobile&amp;endpoint=203.0.113.7%3A4500`,
  );
  const over = await download(t, cookie, `/peers/${id}/config?device=mobile&endpoint=${endpoint}`);
  assertStringIncludes(over.text, `Endpoint = ${endpoint}\n`);
  assertEquals([over.mtu, over.keepalive], ["1420", "25"], "mobile on the default ipv4");
});

Deno.test("peer page: an unknown device or connection is refused next to its field, on the page, the download and the QR page", async () => {
  const { t, cookie, id } = await withPeer();
  await using _ = t;
  let page = await getPage(t, `/peers/${id}?device=toaster&connection=ipv4`, cookie);
  assertEquals(page.status, 400);
  assertStringIncludes(fieldError(page.html, "cfg-device") ?? "", 'Unknown device "toaster"');
  assert(!page.html.includes(`/peers/${id}/config?`), "no download with a refused choice");
  page = await getPage(t, `/peers/${id}?connection=dialup`, cookie);
  assertEquals(page.status, 400);
  assertStringIncludes(
    fieldError(page.html, "cfg-connection") ?? "",
    'Unknown connection "dialup"',
  );

  page = await getPage(t, `/peers/${id}/config?connection=dialup`, cookie);
  assertEquals(page.status, 400);
  assertStringIncludes(fieldError(page.html, "cfg-connection") ?? "", "restrictive-nat");
  page = await getPage(t, `/peers/${id}/config?endpoint=a:b:c:x`, cookie);
  assertEquals(page.status, 400);
  assertStringIncludes(fieldError(page.html, "cfg-endpoint") ?? "", "endpoint");
  page = await getPage(t, `/peers/${id}/qr?device=toaster`, cookie);
  assertEquals(page.status, 400);
  assertStringIncludes(fieldError(page.html, "cfg-device") ?? "", 'Unknown device "toaster"');
  const svg = await fetch(`${t.admin}/peers/${id}/qr?format=svg&device=toaster`, {
    headers: { cookie },
  });
  assertEquals(svg.status, 400);
  assertStringIncludes(await svg.text(), 'Unknown device "toaster"');
});

Deno.test("peer QR: the dialog's image and the QR page carry the file of the same choices (zbarimg)", async () => {
  const { t, cookie, id } = await withPeer();
  await using _ = t;
  if (!haveSystem("peer QR choices zbarimg", ["zbarimg"])) return;
  const q = "device=desktop&connection=cellular&endpoint=198.51.100.9:51999";
  const dir = await Deno.makeTempDir({ prefix: "palisade-qr-" });
  try {
    const res = await fetch(`${t.admin}/peers/${id}/qr?${q}&format=svg`, { headers: { cookie } });
    assertEquals(res.status, 200);
    await Deno.writeTextFile(`${dir}/qr.svg`, await res.text());
    const text = (await run("zbarimg", ["--raw", "-q", "--oneshot", `${dir}/qr.svg`])).stdout;
    assertStringIncludes(text, "MTU = 1280\n");
    assertStringIncludes(text, "PersistentKeepalive = 25\n");
    assertStringIncludes(text, "Endpoint = 198.51.100.9:51999\n");

    const page = await getPage(t, `/peers/${id}/qr?${q}`, cookie);
    assertEquals(page.status, 200);
    const b64 = /src="data:image\/svg\+xml;base64,([^"]+)"/.exec(page.html)?.[1];
    assert(b64, "the page shows the image");
    await Deno.writeTextFile(`${dir}/page.svg`, atob(b64));
    const fromPage = (await run("zbarimg", ["--raw", "-q", "--oneshot", `${dir}/page.svg`])).stdout;
    assertEquals(fromPage.replace(/^# .*\n/gm, ""), text.replace(/^# .*\n/gm, ""));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
