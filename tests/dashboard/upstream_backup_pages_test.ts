/**
 * The upstream import and backups pages without a browser: forms posted as
 * a browser does. The import page never sends the pasted configuration (and
 * its private key) back; the backups page is for administrators, lists what
 * the service stored and restores and deletes through confirmation pages.
 */
import { assert, assertEquals, assertStringIncludes } from "../assert.ts";
import { fieldError, getPage, postForm, rowText } from "../helpers/dashboard.ts";
import { startTestServer } from "../helpers/test_server.ts";

const PRIVATE = "WN1+5HoC2cfNESfCaQQm/mcPtM8mgoC4dsuKYwj1LFw=";
/** `echo $PRIVATE | wg pubkey` */
const PUBLIC = "r785rmXSgO5w3rYJI37hsSyzFMZZre+4D+vIbHLyxw4=";
const PROVIDER = "966CSnF7MKaLAZAVDGHqn6qkk4IrDpOun/OI/+WCsEk=";
const PSK = "Ab5gHwpB0COsQj6kazEi1XssuFoxBmFlNJcpd8Hd0uw=";

const CONFIG = `[Interface]
PrivateKey = ${PRIVATE}
Address = 10.64.12.7/32
DNS = 10.64.0.1
MTU = 1380
PostUp = iptables -A OUTPUT -j DROP

[Peer]
PublicKey = ${PROVIDER}
PresharedKey = ${PSK}
Endpoint = 198.51.100.7:51820
AllowedIPs = 0.0.0.0/0
PersistentKeepalive = 25
`;

/** No secret of the configuration, nor a piece of one, in any encoding HTML would use. */
function assertNoSecret(html: string) {
  for (const secret of [PRIVATE, PSK]) {
    for (
      const s of [secret, secret.slice(0, 16), secret.slice(-16), secret.replace(/\+/g, "&#43;")]
    ) {
      assertEquals(html.includes(s), false, `a secret is in the page: ${s}`);
    }
  }
  assertEquals(html.includes("iptables"), false, "the pasted text is echoed");
}

Deno.test("upstream import page: preview shows the redacted plan and ignored keys, never the pasted configuration or its keys", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  const res = await postForm(t, "/tunnels/import", {
    _action: "preview",
    name: "vpn-nl",
    config: CONFIG,
  }, cookie);
  assertEquals(res.status, 200);
  const html = await res.text();
  assertNoSecret(html);
  assertStringIncludes(html, "Preview: nothing is stored yet");
  assertStringIncludes(html, PUBLIC);
  assertStringIncludes(html, PROVIDER);
  assertStringIncludes(html, "10.64.12.7/32");
  assertStringIncludes(html, "198.51.100.7:51820");
  assertStringIncludes(html, "[redacted]");
  assertEquals(rowText(html, "data-line", "4")?.startsWith("4 [Interface] DNS"), true);
  assertEquals(rowText(html, "data-line", "6")?.startsWith("6 [Interface] PostUp"), true);
  assertStringIncludes(html, 'value="vpn-nl"', "the name is kept");
  assertStringIncludes(html, "Paste the configuration again");
  assertEquals((await t.services.tunnels.interfaces.list()).length, 0, "preview stored something");
});

Deno.test("upstream import page: refusals sit next to config naming line and key, the config is not echoed; import redirects to the new interface", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  const bad = CONFIG.replace("MTU = 1380", "MTU = 576");
  let res = await postForm(
    t,
    "/tunnels/import",
    { _action: "import", name: "", config: bad },
    cookie,
  );
  assertEquals(res.status, 422);
  let html = await res.text();
  assertStringIncludes(fieldError(html, "f-config") ?? "", "Line 5: MTU 576 is outside 1280-9000");
  assertNoSecret(html);

  res = await postForm(t, "/tunnels/import", {
    _action: "preview",
    name: "Bad Name!",
    config: CONFIG,
  }, cookie);
  assertEquals(res.status, 400);
  html = await res.text();
  assert(fieldError(html, "f-name"), "the name's refusal is next to it");
  assertNoSecret(html);

  res = await postForm(
    t,
    "/tunnels/import",
    { _action: "import", name: "vpn-nl", config: CONFIG },
    cookie,
  );
  assertEquals(res.status, 303);
  const location = res.headers.get("location")!;
  const id = /^\/tunnels\/([0-9a-f-]{36})\?done=imported(_unverified)?$/.exec(location)?.[1];
  assert(id, location);
  const page = await getPage(t, location, cookie);
  assertEquals(page.status, 200);
  assertStringIncludes(page.html, "vpn-nl");
  assertStringIncludes(page.html, "Upstream interface imported");
  assertNoSecret(page.html);
});

Deno.test("upstream import page is for operators: viewers get 403 and no link on the tunnels page", async () => {
  await using t = await startTestServer();
  await t.addUser("vera", "viewer");
  await t.addUser("otto", "operator");
  const viewer = await t.login("vera", "vera-password-123");
  const operator = await t.login("otto", "otto-password-123");
  assertEquals((await getPage(t, "/tunnels/import", viewer)).status, 403);
  const res = await postForm(
    t,
    "/tunnels/import",
    { _action: "preview", name: "", config: CONFIG },
    viewer,
  );
  assertEquals(res.status, 403);
  assertEquals(
    (await getPage(t, "/tunnels", viewer)).html.includes('href="/tunnels/import"'),
    false,
  );
  assertStringIncludes((await getPage(t, "/tunnels", operator)).html, 'href="/tunnels/import"');
  assertEquals((await getPage(t, "/tunnels/import", operator)).status, 200);
});

Deno.test("backups page: create from the button, listed with size, kind and schema; download; restore and delete through confirmations", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  let html = (await getPage(t, "/backups", cookie)).html;
  assertStringIncludes(html, "No backup yet.");

  let res = await postForm(t, "/backups", { _action: "create" }, cookie);
  assertEquals(res.status, 303);
  assertEquals(res.headers.get("location"), "/backups?done=created");
  const [b] = await t.services.backups.list();
  html = (await getPage(t, "/backups?done=created", cookie)).html;
  assertStringIncludes(html, "Backup created.");
  const row = rowText(html, "data-backup-id", b.id)!;
  assertStringIncludes(row, `${b.id} `);
  assertStringIncludes(row, " manual ");
  assertStringIncludes(row, `KiB manual ${b.schema_version} Download Restore… Delete…`);

  const file = await fetch(`${t.admin}/backups/${b.id}/download`, { headers: { cookie } });
  assertEquals(file.status, 200);
  assertEquals(file.headers.get("cache-control"), "no-store");
  const bytes = new Uint8Array(await file.arrayBuffer());
  assertEquals(new TextDecoder().decode(bytes.slice(0, 15)), "SQLite format 3");
  assertEquals(bytes.length, b.size);

  const ask = await getPage(t, `/backups/${b.id}/restore`, cookie);
  assertEquals(ask.status, 200);
  assertStringIncludes(ask.html, "safety backup of the current state is taken first");
  assertStringIncludes(ask.html, "replaced by the backup");
  res = await postForm(t, `/backups/${b.id}/restore`, {}, cookie);
  assertEquals(res.status, 303);
  assertEquals(res.headers.get("location"), "/backups?done=restored");
  const after = await t.services.backups.list();
  assertEquals(after.length, 2);
  const safety = after.find((x) => x.kind === "safety")!;
  // A restore brings back the backup's sessions: this one predates it, so it still works.
  html = (await getPage(t, "/backups?done=restored", cookie)).html;
  assertStringIncludes(rowText(html, "data-backup-id", safety.id)!, " safety ");

  res = await postForm(t, `/backups/${safety.id}/delete`, {}, cookie);
  assertEquals(res.status, 303);
  assertEquals(res.headers.get("location"), "/backups?done=deleted");
  assertEquals((await t.services.backups.list()).map((x) => x.id), [b.id]);
  assertEquals((await getPage(t, "/backups/20260101T000000Z-00000000/delete", cookie)).status, 404);
});

Deno.test("backups pages are for administrators: operators get 403 on every one and no Backups link", async () => {
  await using t = await startTestServer();
  const b = await t.services.backups.create("test");
  await t.addUser("otto", "operator");
  const operator = await t.login("otto", "otto-password-123");
  for (
    const path of [
      "/backups",
      `/backups/${b.id}/download`,
      `/backups/${b.id}/restore`,
      `/backups/${b.id}/delete`,
    ]
  ) {
    assertEquals((await getPage(t, path, operator)).status, 403, path);
  }
  for (const path of ["/backups", `/backups/${b.id}/restore`, `/backups/${b.id}/delete`]) {
    assertEquals((await postForm(t, path, { _action: "create" }, operator)).status, 403, path);
  }
  assertEquals((await getPage(t, "/", operator)).html.includes('href="/backups"'), false);
  assertStringIncludes((await getPage(t, "/", await t.login())).html, 'href="/backups"');
  assertEquals((await t.services.backups.list()).length, 1);
});
