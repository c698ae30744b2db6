import { assertEquals, assertStringIncludes } from "../assert.ts";
import { call, openSocket, startTestServer } from "../helpers/test_server.ts";
import { waitFor } from "../helpers/wait.ts";

Deno.test("PUT /system/settings stores a valid value and lists every key", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  const put = await call(`${t.admin}/api/v1/system/settings`, {
    method: "PUT",
    headers: { cookie },
    json: { key: "wireguard.server_host", value: "vpn.example.org" },
  });
  assertEquals(put.status, 200);
  assertEquals(put.body.value, "vpn.example.org");
  const list = await call(`${t.admin}/api/v1/system/settings`, { headers: { cookie } });
  const keys = (list.body.settings as { key: string }[]).map((s) => s.key).sort();
  assertEquals(keys, [
    "auth.two_factor_roles",
    "wireguard.server_endpoint_enabled",
    "wireguard.server_host",
    "wireguard.server_port",
  ]);
});

Deno.test("PUT /system/settings answers 422 for a host with an embedded port and for ports out of range", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  const cases = [
    { key: "wireguard.server_host", value: "vpn.example.org:51820" },
    { key: "wireguard.server_host", value: "[2001:db8::1]:51820" },
    { key: "wireguard.server_port", value: "0" },
    { key: "wireguard.server_port", value: "65536" },
    { key: "wireguard.server_port", value: 70000 },
  ];
  for (const json of cases) {
    const res = await call(`${t.admin}/api/v1/system/settings`, {
      method: "PUT",
      headers: { cookie },
      json,
    });
    assertEquals(res.status, 422, JSON.stringify(json));
    assertEquals(res.body.status, 422);
  }
  const embedded = await call(`${t.admin}/api/v1/system/settings`, {
    method: "PUT",
    headers: { cookie },
    json: cases[0],
  });
  assertStringIncludes(String(embedded.body.error), "must not embed a port");
  assertEquals(await t.services.settings.get("wireguard.server_host"), undefined);
  assertEquals(await t.services.settings.get("wireguard.server_port"), undefined);
});

Deno.test("PUT /system/settings answers 400 for an unknown key, a missing field and malformed JSON", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  const unknown = await call(`${t.admin}/api/v1/system/settings`, {
    method: "PUT",
    headers: { cookie },
    json: { key: "wireguard.server_colour", value: "blue" },
  });
  assertEquals(unknown.status, 400);
  assertStringIncludes(String(unknown.body.error), "wireguard.server_colour");
  const missing = await call(`${t.admin}/api/v1/system/settings`, {
    method: "PUT",
    headers: { cookie },
    json: { key: "wireguard.server_port" },
  });
  assertEquals(missing.status, 400);
  assertEquals(missing.body.error, 'Missing field "value"');
  const malformed = await call(`${t.admin}/api/v1/system/settings`, {
    method: "PUT",
    headers: { cookie, "Content-Type": "application/json" },
    body: '{"key": "wireguard.server_port", ',
  });
  assertEquals(malformed.status, 400);
  assertEquals(malformed.body, { error: "Request body is not valid JSON", status: 400 });
});

Deno.test("secret settings are masked in listings, events and audit", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  const SECRET = "hidden.example.org";
  const ws = await openSocket(`${t.admin.replace("http", "ws")}/api/v1/ws`, { cookie });
  const frames: string[] = [];
  ws.addEventListener("message", (e) => frames.push(String(e.data)));
  try {
    const settings = `${t.admin}/api/v1/system/settings`;
    const put = await call(settings, {
      method: "PUT",
      headers: { cookie },
      json: { key: "wireguard.server_host", value: SECRET, is_secret: true },
    });
    assertEquals(put.status, 200);
    assertEquals([put.body.value, put.body.is_secret], ["********", true]);
    // A later change: events are delivered in order, so once its frame is here every frame of
    // the secret one is too.
    const later = await call(settings, {
      method: "PUT",
      headers: { cookie },
      json: { key: "wireguard.server_port", value: "51999" },
    });
    assertEquals(later.status, 200);
    const laterSeen = await waitFor(() => frames.some((f) => f.includes("51999")), 5000, 10);
    assertEquals(laterSeen, true, "the later change's frame arrived");
    const parsed = frames.map((f) =>
      JSON.parse(f) as { type: string; payload: Record<string, unknown> }
    );
    const about = (type: string) =>
      parsed.filter((f) =>
        f.type === type &&
        (f.payload.key ?? f.payload.resource_id) === "wireguard.server_host"
      ).map((f) => f.payload);
    assertEquals(about("SettingsChanged"), [
      { key: "wireguard.server_host", value: null, is_secret: true },
    ]);
    assertEquals(about("AuditEvent").map((p) => p.message), [
      'Set "wireguard.server_host" to a secret value',
    ]);
    assertEquals(frames.filter((f) => f.includes(SECRET)), [], "no frame carries the value");

    const list = await call(settings, { headers: { cookie } });
    const host = (list.body.settings as { key: string; value: string }[]).find((s) =>
      s.key === "wireguard.server_host"
    );
    assertEquals(host?.value, "********");
    const audit = await call(
      `${t.admin}/api/v1/audit?event_type=settings.updated&resource_id=wireguard.server_host`,
      { headers: { cookie } },
    );
    assertEquals(audit.status, 200);
    const rows = audit.body.records as { message: string; resource_id: string }[];
    assertEquals(rows.map((r) => [r.resource_id, r.message]), [
      ["wireguard.server_host", 'Set "wireguard.server_host" to a secret value'],
    ]);
    assertEquals(JSON.stringify(audit.body).includes(SECRET), false);
  } finally {
    ws.close();
  }
});

Deno.test("a request body over 1 MiB gets 413 and changes nothing", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  const big = JSON.stringify({ key: "wireguard.server_host", value: "x".repeat(1024 * 1024) });
  const res = await call(`${t.admin}/api/v1/system/settings`, {
    method: "PUT",
    headers: { cookie, "Content-Type": "application/json" },
    body: big,
  });
  assertEquals(res.status, 413);
  assertEquals(res.body.status, 413);
  // Also when the length is not declared up front (streamed body).
  const stream = new ReadableStream({
    start(c) {
      c.enqueue(new TextEncoder().encode(big));
      c.close();
    },
  });
  const streamed = await call(`${t.admin}/api/v1/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: stream,
  });
  assertEquals(streamed.status, 413);
  assertEquals(await t.services.settings.get("wireguard.server_host"), undefined);
});

Deno.test("an unexpected exception becomes a 500 with a generic message and no stack", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  // Break the store underneath the settings service.
  t.store.db.exec("DROP TABLE settings");
  const res = await call(`${t.admin}/api/v1/system/settings`, { headers: { cookie } });
  assertEquals(res.status, 500);
  assertEquals(res.body, { error: "Internal server error", status: 500 });
});

Deno.test("dashboard error pages carry the security headers", async () => {
  await using t = await startTestServer();
  const res = await fetch(`${t.admin}/no-such-page`);
  await res.body?.cancel();
  assertEquals(res.status, 404);
  assertStringIncludes(res.headers.get("content-security-policy") ?? "", "frame-ancestors 'none'");
  assertEquals(res.headers.get("x-frame-options"), "DENY");
  assertEquals(res.headers.get("x-content-type-options"), "nosniff");
});
