import { assert, assertEquals, assertMatch, assertStringIncludes } from "../assert.ts";
import { ADMIN, call, startTestServer } from "../helpers/test_server.ts";

Deno.test("POST /auth/login returns the user and sets a strict HttpOnly session cookie", async () => {
  await using t = await startTestServer();
  const res = await call(`${t.admin}/api/v1/auth/login`, { method: "POST", json: ADMIN });
  assertEquals(res.status, 200);
  assertEquals(res.body.username, "admin");
  assertEquals(res.body.role, "administrator");
  assertEquals("password_hash" in res.body || "password" in res.body, false);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("svc_session="))!;
  assert(cookie, "svc_session cookie is set");
  const attrs = cookie.split(";").map((a) => a.trim());
  assert(attrs.includes("HttpOnly"), cookie);
  assert(attrs.includes("SameSite=Strict"), cookie);
  assert(attrs.includes("Path=/"), cookie);
  assert(!attrs.includes("Secure"), "no Secure over plain HTTP");
  const session = await call(`${t.admin}/api/v1/auth/session`, {
    headers: { cookie: cookie.split(";")[0] },
  });
  assertEquals(session.status, 200);
  assertEquals((session.body.user as { username: string }).username, "admin");
  assertEquals(session.body.auth, "session");
});

Deno.test("POST /auth/login marks the cookie Secure behind HTTPS", async () => {
  await using t = await startTestServer();
  const res = await call(`${t.admin}/api/v1/auth/login`, {
    method: "POST",
    json: ADMIN,
    headers: { "X-Forwarded-Proto": "https" },
  });
  assertEquals(res.status, 200);
  assertStringIncludes(res.headers.getSetCookie()[0], "; Secure");
});

Deno.test("POST /auth/login rejects a wrong password and an unknown user alike with 401", async () => {
  await using t = await startTestServer();
  const wrong = await call(`${t.admin}/api/v1/auth/login`, {
    method: "POST",
    json: { username: "admin", password: "not the password" },
  });
  const unknown = await call(`${t.admin}/api/v1/auth/login`, {
    method: "POST",
    json: { username: "nobody", password: "whatever-password" },
  });
  for (const r of [wrong, unknown]) {
    assertEquals(r.status, 401);
    assertEquals(r.body, { error: "Invalid username or password", status: 401 });
    assertEquals(r.headers.getSetCookie().length, 0);
  }
});

Deno.test("POST /auth/login answers the sixth failed attempt from one address with 429", async () => {
  await using t = await startTestServer();
  const attempt = (password: string) =>
    call(`${t.admin}/api/v1/auth/login`, { method: "POST", json: { username: "admin", password } });
  for (let i = 1; i <= 5; i++) {
    assertEquals((await attempt(`wrong-${i}`)).status, 401, `attempt ${i}`);
  }
  const sixth = await attempt("wrong-6");
  assertEquals(sixth.status, 429);
  assertEquals(sixth.body.status, 429);
  assert(Number(sixth.headers.get("retry-after")) > 0);
  // Locked even with the right password: the limit is checked before the password.
  assertEquals((await attempt(ADMIN.password)).status, 429);
});

Deno.test("POST /auth/logout ends the session", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  const out = await call(`${t.admin}/api/v1/auth/logout`, { method: "POST", headers: { cookie } });
  assertEquals(out.status, 200);
  assertMatch(out.headers.getSetCookie()[0], /^svc_session=;.*Max-Age=0/);
  assertEquals((await call(`${t.admin}/api/v1/auth/session`, { headers: { cookie } })).status, 401);
});

Deno.test("API token: create → use → revoke → 401, and listings never show the token", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  const created = await call(`${t.admin}/api/v1/auth/tokens`, {
    method: "POST",
    headers: { cookie },
    json: { name: "ci", expires_in_days: 30 },
  });
  assertEquals(created.status, 201);
  const raw = created.body.raw_token as string;
  assertMatch(raw, /^svc_[0-9a-f-]{36}_[A-Za-z0-9_-]{43}$/);
  const meta = created.body.meta as { id: string; name: string };
  assertEquals(meta.name, "ci");

  const bearer = { Authorization: `Bearer ${raw}` };
  const used = await call(`${t.admin}/api/v1/auth/session`, { headers: bearer });
  assertEquals(used.status, 200);
  assertEquals(used.body.auth, "token");

  const list = await call(`${t.admin}/api/v1/auth/tokens`, { headers: { cookie } });
  assertEquals((list.body.tokens as unknown[]).length, 1);
  // The secret part may itself contain "_" (base64url): take everything after svc_<uuid>_.
  const secret = raw.slice("svc_".length + 36 + 1);
  assertEquals(secret.length, 43);
  assert(!JSON.stringify(list.body).includes(secret), "listing leaks the secret");
  // Only a hash is stored.
  const stored = t.store.get<{ token_hash: string }>("SELECT token_hash FROM api_tokens")!;
  assert(!stored.token_hash.includes(secret));
  assertEquals(stored.token_hash.length, 64);

  const revoked = await call(`${t.admin}/api/v1/auth/tokens/${meta.id}`, {
    method: "DELETE",
    headers: { cookie },
  });
  assertEquals(revoked.status, 200);
  const after = await call(`${t.admin}/api/v1/auth/session`, { headers: bearer });
  assertEquals(after.status, 401);
  assertEquals(after.body.status, 401);
});

Deno.test("API token: expires after expires_in_days", async () => {
  const { ManualClock } = await import("../../lib/clock.ts");
  const clock = new ManualClock(Date.now());
  await using t = await startTestServer({ clock });
  const bearer = { Authorization: `Bearer ${await t.createToken("short", 1)}` };
  assertEquals((await call(`${t.admin}/api/v1/system`, { headers: bearer })).status, 200);
  clock.advance(24 * 3600_000 + 1);
  assertEquals((await call(`${t.admin}/api/v1/system`, { headers: bearer })).status, 401);
});

Deno.test("POST /auth/password ends every session of the user, including other devices", async () => {
  await using t = await startTestServer();
  const laptop = await t.login();
  const phone = await t.login();
  const wrong = await call(`${t.admin}/api/v1/auth/password`, {
    method: "POST",
    headers: { cookie: laptop },
    json: { current_password: "not it", new_password: "a brand new password" },
  });
  assertEquals(wrong.status, 422);
  assertEquals(
    (await call(`${t.admin}/api/v1/auth/session`, { headers: { cookie: phone } })).status,
    200,
  );

  const changed = await call(`${t.admin}/api/v1/auth/password`, {
    method: "POST",
    headers: { cookie: laptop },
    json: { current_password: ADMIN.password, new_password: "a brand new password" },
  });
  assertEquals(changed.status, 200);
  assertEquals(
    (await call(`${t.admin}/api/v1/auth/session`, { headers: { cookie: phone } })).status,
    401,
  );
  assertEquals(
    (await call(`${t.admin}/api/v1/auth/session`, { headers: { cookie: laptop } })).status,
    401,
  );
  await t.login("admin", "a brand new password");
});

Deno.test("POST /auth/password leaves API tokens and other users' sessions valid", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  const token = { authorization: `Bearer ${await t.createToken("ci")}` };
  await t.addUser("olga", "operator", "olga-password-123");
  const olga = await t.login("olga", "olga-password-123");
  const changed = await call(`${t.admin}/api/v1/auth/password`, {
    method: "POST",
    headers: { cookie },
    json: { current_password: ADMIN.password, new_password: "a brand new password" },
  });
  assertEquals(changed.status, 200);
  assertEquals(
    (await call(`${t.admin}/api/v1/auth/session`, { headers: { cookie } })).status,
    401,
  );
  // Tokens are revoked one by one (DELETE /auth/tokens/{id}), not by a password change.
  assertEquals((await call(`${t.admin}/api/v1/system`, { headers: token })).status, 200);
  assertEquals(
    (await call(`${t.admin}/api/v1/auth/session`, { headers: { cookie: olga } })).status,
    200,
  );
});

Deno.test("a cookie-authenticated change from another origin is refused with 403", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  const res = await call(`${t.admin}/api/v1/system/settings`, {
    method: "PUT",
    headers: { cookie, Origin: "https://evil.example" },
    json: { key: "wireguard.server_port", value: "51820" },
  });
  assertEquals(res.status, 403);
  assertEquals(await t.services.settings.get("wireguard.server_port"), undefined);
  const same = await call(`${t.admin}/api/v1/system/settings`, {
    method: "PUT",
    headers: { cookie, Origin: t.admin },
    json: { key: "wireguard.server_port", value: "51820" },
  });
  assertEquals(same.status, 200);
});

Deno.test("roles: a viewer reads settings but gets 403 changing them", async () => {
  await using t = await startTestServer();
  await t.addUser("vera", "viewer");
  const cookie = await t.login("vera", "vera-password-123");
  assertEquals(
    (await call(`${t.admin}/api/v1/system/settings`, { headers: { cookie } })).status,
    200,
  );
  const put = await call(`${t.admin}/api/v1/system/settings`, {
    method: "PUT",
    headers: { cookie },
    json: { key: "wireguard.server_port", value: "51820" },
  });
  assertEquals(put.status, 403);
  assertEquals(put.body.status, 403);
});

Deno.test("login never redirects off this origin, whatever `next` says", async () => {
  await using t = await startTestServer();
  const form = (next: string) =>
    fetch(`${t.admin}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ...ADMIN, next }),
    });
  for (
    const next of [
      "/\\evil.example",
      "//evil.example",
      "/\t/evil.example",
      "https://evil.example/",
      "/%5Cevil",
      // Dot segments that URL resolution removes, leaving "//evil.example".
      "/.//evil.example",
      "/..//evil.example",
      "/a/..//evil.example",
      "/%2e//evil.example",
    ]
  ) {
    const res = await form(next);
    await res.body?.cancel();
    assertEquals(res.status, 303, next);
    const location = res.headers.get("location")!;
    assertEquals(
      new URL(location, t.admin).origin,
      new URL(t.admin).origin,
      `${next} → ${location}`,
    );
  }
  const ok = await form("/audit?actor=admin");
  await ok.body?.cancel();
  assertEquals(ok.headers.get("location"), "/audit?actor=admin");
  const cookie = await t.login();
  const already = await fetch(`${t.admin}/login?next=${encodeURIComponent("/\\evil.example")}`, {
    redirect: "manual",
    headers: { cookie },
  });
  await already.body?.cancel();
  assertEquals(already.headers.get("location"), "/");
});

Deno.test("a login posted from another site is refused (login CSRF)", async () => {
  await using t = await startTestServer();
  const api = await call(`${t.admin}/api/v1/auth/login`, {
    method: "POST",
    json: ADMIN,
    headers: { Origin: "https://evil.example" },
  });
  assertEquals(api.status, 403);
  assertEquals(api.headers.getSetCookie().length, 0);
  const page = await fetch(`${t.admin}/login`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "Sec-Fetch-Site": "cross-site",
    },
    body: new URLSearchParams(ADMIN),
  });
  await page.body?.cancel();
  assertEquals(page.status, 403);
  assertEquals(page.headers.getSetCookie().length, 0);
});

Deno.test("guessing the current password through POST /auth/password is limited like logins", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  const attempt = (current_password: string) =>
    call(`${t.admin}/api/v1/auth/password`, {
      method: "POST",
      headers: { cookie },
      json: { current_password, new_password: "a brand new password" },
    });
  for (let i = 1; i <= 5; i++) {
    assertEquals((await attempt(`wrong-${i}`)).status, 422, `attempt ${i}`);
  }
  assertEquals((await attempt("wrong-6")).status, 429);
  assertEquals((await attempt(ADMIN.password)).status, 429, "locked even with the right password");
});

Deno.test("an API token cannot create tokens or change the password (a session is needed)", async () => {
  await using t = await startTestServer();
  const bearer = { Authorization: `Bearer ${await t.createToken("short", 1)}` };
  const mint = await call(`${t.admin}/api/v1/auth/tokens`, {
    method: "POST",
    headers: bearer,
    json: { name: "forever", expires_in_days: 3650 },
  });
  assertEquals(mint.status, 403);
  const pw = await call(`${t.admin}/api/v1/auth/password`, {
    method: "POST",
    headers: bearer,
    json: { current_password: ADMIN.password, new_password: "a brand new password" },
  });
  assertEquals(pw.status, 403);
  assertEquals(t.store.get<{ n: number }>("SELECT count(*) AS n FROM api_tokens")!.n, 1);
});

Deno.test("a failed login names the user only when the username exists", async () => {
  await using t = await startTestServer();
  for (const username of ["admin", "my-password-by-mistake"]) {
    await call(`${t.admin}/api/v1/auth/login`, {
      method: "POST",
      json: { username, password: "nope" },
    });
  }
  const messages =
    (await t.services.audit.list({ event_type: "auth.login_failed", limit: 10, offset: 0 }))
      .records
      .map((r) => r.message);
  assertEquals(messages.length, 2);
  assert(messages.some((m) => m.startsWith('Failed login for "admin"')));
  assert(!messages.some((m) => m.includes("my-password-by-mistake")));
});
