import { assert, assertEquals } from "../assert.ts";
import { ADMIN, call, openSocket, startTestServer } from "../helpers/test_server.ts";

function nextFrame(
  ws: WebSocket,
  type: string,
  timeoutMs = 5000,
): Promise<{ type: string; payload: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no ${type} frame within ${timeoutMs} ms`)),
      timeoutMs,
    );
    ws.addEventListener("message", (e) => {
      const frame = JSON.parse(String(e.data));
      if (frame.type === type) {
        clearTimeout(timer);
        resolve(frame);
      }
    });
  });
}

Deno.test("/api/v1/ws streams an AuditEvent after PUT /system/settings", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  const ws = await openSocket(`${t.admin.replace("http", "ws")}/api/v1/ws`, { cookie });
  try {
    const frame = nextFrame(ws, "AuditEvent");
    const put = await call(`${t.admin}/api/v1/system/settings`, {
      method: "PUT",
      headers: { cookie },
      json: { key: "wireguard.server_port", value: "51820" },
    });
    assertEquals(put.status, 200);
    const { payload } = await frame;
    assertEquals(payload.event_type, "settings.updated");
    assertEquals(payload.resource_type, "setting");
    assertEquals(payload.resource_id, "wireguard.server_port");
    assert(payload.message.includes("51820"));
  } finally {
    ws.close();
  }
});

Deno.test("/api/v1/ws refuses an upgrade without a credential", async () => {
  await using t = await startTestServer();
  const ws = new WebSocket(`${t.admin.replace("http", "ws")}/api/v1/ws`);
  const outcome = await new Promise<string>((resolve) => {
    ws.onopen = () => resolve("open");
    ws.onerror = () => resolve("error");
  });
  assertEquals(outcome, "error");
  const res = await fetch(`${t.admin}/api/v1/ws`, { headers: { Upgrade: "websocket" } });
  assertEquals(res.status, 401);
  await res.body?.cancel();
});

Deno.test("/api/v1/ws closes a stream when its session ends (logout, password change)", async () => {
  await using t = await startTestServer();
  const url = `${t.admin.replace("http", "ws")}/api/v1/ws`;
  for (const end of ["logout", "password"] as const) {
    const cookie = await t.login("admin", end === "password" ? ADMIN.password : undefined);
    const ws = await openSocket(url, { cookie });
    const closed = new Promise<CloseEvent>((resolve) => (ws.onclose = resolve));
    if (end === "logout") {
      await call(`${t.admin}/api/v1/auth/logout`, { method: "POST", headers: { cookie } });
    } else {
      const other = await t.login();
      await call(`${t.admin}/api/v1/auth/password`, {
        method: "POST",
        headers: { cookie: other },
        json: { current_password: ADMIN.password, new_password: "another long password" },
      });
    }
    const timeout = new Promise<null>((r) => setTimeout(() => r(null), 2000));
    const ev = await Promise.race([closed, timeout]);
    assert(ev !== null, `stream still open after ${end}`);
    assertEquals(ev.code, 1008);
  }
});

Deno.test("/api/v1/ws refuses a cookie-authenticated upgrade from another origin", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  const res = await fetch(`${t.admin}/api/v1/ws`, {
    headers: {
      cookie,
      Upgrade: "websocket",
      Connection: "Upgrade",
      Origin: "https://evil.example",
      "Sec-WebSocket-Version": "13",
      "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
    },
  });
  assertEquals(res.status, 403);
  await res.body?.cancel();
});

Deno.test("/api/v1/ws closes the stream when the user's role changes", async () => {
  await using t = await startTestServer();
  await t.addUser("olga", "operator");
  const ws = await openSocket(`${t.admin.replace("http", "ws")}/api/v1/ws`, {
    cookie: await t.login("olga", "olga-password-123"),
  });
  const closed = new Promise<CloseEvent>((resolve) => (ws.onclose = resolve));
  const olga = (await t.services.users.list()).find((u) => u.username === "olga")!;
  await t.services.users.setRole(olga.id, "viewer", "admin");
  const ev = await Promise.race([
    closed,
    new Promise<null>((r) => setTimeout(() => r(null), 2000)),
  ]);
  assert(ev !== null, "stream still open after the role change");
  assertEquals(ev.code, 1008);
});

Deno.test("/api/v1/ws sends events in order while a credential event waits for its re-check", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  const ws = await openSocket(`${t.admin.replace("http", "ws")}/api/v1/ws`, { cookie });
  try {
    const types: string[] = [];
    const two = new Promise<void>((resolve) => {
      ws.addEventListener("message", (e) => {
        const frame = JSON.parse(String(e.data));
        if (frame.type !== "AuditEvent") return;
        types.push(frame.payload.event_type);
        if (types.length === 2) resolve();
      });
    });
    const audit = (event_type: string) => ({
      id: "1",
      time: "2026-01-01T00:00:00.000Z",
      actor: "someone",
      event_type,
      message: "m",
      resource_type: "user",
      resource_id: "u",
    });
    // Another session's logout makes this socket re-check its own (still valid) session.
    t.services.events.emit("AuditEvent", audit("auth.logout"));
    t.services.events.emit("AuditEvent", audit("settings.updated"));
    await two;
    assertEquals(types, ["auth.logout", "settings.updated"]);
  } finally {
    ws.close();
  }
});
