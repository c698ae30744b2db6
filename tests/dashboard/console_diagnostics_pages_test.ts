/**
 * The console and diagnostics pages without a browser: a command chosen from
 * the allowlist runs and its output shows; a refusal stands next to the
 * field the service names; a viewer cannot post to the console; every
 * subsystem's status and checks show on the diagnostics page.
 */
import { assert, assertEquals, assertStringIncludes } from "../assert.ts";
import { fieldError, formError, getPage, postForm, rowText } from "../helpers/dashboard.ts";
import { startTestServer } from "../helpers/test_server.ts";

/** The text of the page's console output block, entities decoded, or null. */
function output(html: string): string | null {
  const m = /<pre[^>]*data-console-output[^>]*>([\s\S]*?)<\/pre>/.exec(html);
  return m
    ? m[1].replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&")
    : null;
}

Deno.test("console page: the command is a choice of the allowlist and an internal command's output shows pretty-printed", async () => {
  await using t = await startTestServer();
  await t.services.dns.createZone("test", {
    name: "example.org",
    admin_email: "admin@example.org",
  });
  const cookie = await t.login();

  const { status, html } = await getPage(t, "/console", cookie);
  assertEquals(status, 200);
  assert(/<select[^>]*name="command"/.test(html), "the command is a drop-down");
  assert(!/<input[^>]*name="command"/.test(html), "never free text for the command");
  for (const key of ["zones list", "system version", "wg show dump", "diagnostics"]) {
    assertStringIncludes(html, `<option value="${key}"`);
  }
  for (const name of ["target", "parameters.limit", "parameters.type", "parameters.interface"]) {
    assertStringIncludes(html, `name="${name}"`, "without script every field shows");
  }

  const res = await postForm(t, "/console", { command: "zones list", target: "" }, cookie);
  assertEquals(res.status, 200);
  const page = await res.text();
  const shown = output(page);
  assert(shown, "an output block");
  assertStringIncludes(shown, '\n  {\n    "name": "example.org"', "indented JSON");
  assertStringIncludes(page, "Exit code");
  assertStringIncludes(page, '<option value="zones list" selected');
  assert(!page.includes("data-command-line"), "no command line for an internal command");

  const version = await postForm(t, "/console", { command: "system version" }, cookie);
  assertEquals(version.status, 200);
  assertStringIncludes(output(await version.text()) ?? "", '"version":');

  // A parameter typed as text reaches the command as a number (audit tail's limit).
  const tail = await postForm(
    t,
    "/console",
    { command: "audit tail", "parameters.limit": "1" },
    cookie,
  );
  assertEquals(tail.status, 200);
  const records = JSON.parse(output(await tail.text()) ?? "null");
  assertEquals(records.length, 1);
});

Deno.test("console page: refusals stand next to the field they name, typed values kept", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();

  let res = await postForm(
    t,
    "/console",
    { command: "interfaces show", target: "wg0; reboot" },
    cookie,
  );
  assertEquals(res.status, 400);
  const html = await res.text();
  assertEquals(
    fieldError(html, "f-target"),
    'Field "target" contains ";", which the console never accepts',
  );
  assertStringIncludes(html, 'value="wg0; reboot"');
  assert(output(html) === null, "nothing ran");

  res = await postForm(t, "/console", { command: "zones show", target: "" }, cookie);
  assertEquals(res.status, 400);
  assertEquals(fieldError(await res.text(), "f-target"), 'Command "zones show" needs a target');

  res = await postForm(t, "/console", { command: "audit tail", "parameters.limit": "500" }, cookie);
  assertEquals(res.status, 400);
  assertStringIncludes(
    fieldError(await res.text(), "f-parameters-limit") ?? "",
    "parameters.limit",
  );

  // A crafted post of a command the drop-down never offers: refused as the API does.
  res = await postForm(t, "/console", { command: "interfaces delete", target: "wg0" }, cookie);
  assertEquals(res.status, 403);
  assertStringIncludes(fieldError(await res.text(), "f-command") ?? "", "changes state");
});

Deno.test("console page: a viewer has no console link and its POST is refused with 403", async () => {
  await using t = await startTestServer();
  await t.addUser("vera", "viewer");
  const cookie = await t.login("vera", "vera-password-123");
  const res = await postForm(t, "/console", { command: "system version" }, cookie);
  assertEquals(res.status, 403);
  assert(!(await res.text()).includes("data-console-output"));
  assertEquals((await getPage(t, "/console", cookie)).status, 403);
  assert(!(await getPage(t, "/", cookie)).html.includes('href="/console"'), "no nav link");
  const audit = (await t.services.audit.list({ limit: 50, offset: 0 })).records;
  assert(!audit.some((r) => r.event_type === "console.executed"), "nothing ran");
});

const SUBSYSTEMS = ["database", "tunnels", "firewall", "routes", "dns", "attestation", "backups"];

Deno.test("diagnostics page: every subsystem with its status, checks and a view of its own", async () => {
  await using t = await startTestServer();
  await t.addUser("vera", "viewer");
  const cookie = await t.login("vera", "vera-password-123");

  const { status, html } = await getPage(t, "/diagnostics", cookie);
  assertEquals(status, 200);
  for (const name of SUBSYSTEMS) {
    const row = rowText(html, "data-subsystem", name);
    assert(row, `${name} is listed`);
    assert(/ (ok|warn|fail|off) /.test(` ${row} `), `${name} has a status: ${row}`);
    assertStringIncludes(html, `href="#subsystem-${name}"`);
    assertStringIncludes(html, `href="/diagnostics?subsystem=${name}"`);
    assertStringIncludes(html, `id="subsystem-${name}"`);
  }
  // No backup yet, so backups is off; the store is healthy.
  assertStringIncludes(rowText(html, "data-subsystem", "backups")!, "backups (alone) off");
  assertStringIncludes(rowText(html, "data-subsystem", "database")!, "database (alone) ok");
  assertStringIncludes(
    rowText(html, "data-check", "database.journal_mode")!,
    "journal_mode ok journal_mode is wal journal_mode=wal",
  );
  assertStringIncludes(html, '<span class="badge muted">off</span>');
  assertStringIncludes(html, '<span class="badge ok">ok</span>');

  const one = await getPage(t, "/diagnostics?subsystem=database", cookie);
  assertEquals(one.status, 200);
  assertStringIncludes(one.html, 'id="subsystem-database"');
  assert(!one.html.includes('id="subsystem-dns"'), "only the one asked for");

  const unknown = await getPage(t, "/diagnostics?subsystem=nope", cookie);
  assertEquals(unknown.status, 404);
  assertStringIncludes(
    formError(unknown.html) ?? "",
    'Diagnostics subsystem "nope" does not exist',
  );
  assertStringIncludes(unknown.html, 'id="subsystem-backups"', "every subsystem below the refusal");
});
