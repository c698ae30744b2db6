/**
 * Two-factor sign-in end to end, with codes from an independent TOTP tool
 * (`oathtool`, RFC 6238): enrolment over the admin API, then all three
 * logins (admin API, DNS API, dashboard form) with a code; a reused code and
 * one outside the ±1 step window refused; recovery codes working once each;
 * wrong codes counted as failed logins; no secret in the audit rows.
 */
import { assert, assertEquals, assertMatch, assertNotEquals } from "../assert.ts";
import { ManualClock } from "../../lib/clock.ts";
import { postForm } from "../helpers/dashboard.ts";
import { rawRows } from "../helpers/raw_sql.ts";
import { haveSystem, run } from "../helpers/system.ts";
import { ADMIN, call, startTestServer, type TestServer } from "../helpers/test_server.ts";

const T0 = Date.UTC(2026, 0, 1, 0, 0, 10);
const STEP = 30_000;

/** The code oathtool computes for `secret` (base32) at `ms`. */
async function oath(secret: string, ms: number): Promise<string> {
  const out = await run("oathtool", ["--totp", "-b", secret, "--now", `@${Math.floor(ms / 1000)}`]);
  return out.stdout.trim();
}

const adminLogin = (t: TestServer, body: Record<string, string>) =>
  call(`${t.admin}/api/v1/auth/login`, { method: "POST", json: { ...ADMIN, ...body } });
const dnsLogin = (t: TestServer, body: Record<string, string>) =>
  call(`${t.dnsApi}/api/v1/auth/login`, { method: "POST", json: { ...ADMIN, ...body } });
const formLogin = (t: TestServer, totp_code: string) =>
  postForm(t, "/login", { ...ADMIN, totp_code, next: "/" }, "");

/** Enrols the administrator over the admin API; returns the secret and recovery codes. */
async function enrol(t: TestServer, clock: ManualClock) {
  const cookie = await t.login();
  const started = await call(`${t.admin}/api/v1/auth/two-factor/enrol`, {
    method: "POST",
    headers: { cookie },
  });
  assertEquals(started.status, 200, JSON.stringify(started.body));
  const secret = started.body.secret as string;
  assertMatch(secret, /^[A-Z2-7]{32}$/);
  assertEquals(
    started.body.uri,
    `otpauth://totp/Palisade%3Aadmin?secret=${secret}&issuer=Palisade&algorithm=SHA1&digits=6&period=30`,
  );
  assert((started.body.qr_svg as string).startsWith("<svg"));
  const wrong = await call(`${t.admin}/api/v1/auth/two-factor/confirm`, {
    method: "POST",
    headers: { cookie },
    json: { code: await oath(secret, clock.now() - 3 * STEP) },
  });
  assertEquals(wrong.status, 403);
  const done = await call(`${t.admin}/api/v1/auth/two-factor/confirm`, {
    method: "POST",
    headers: { cookie },
    json: { code: await oath(secret, clock.now()) },
  });
  assertEquals(done.status, 200, JSON.stringify(done.body));
  const codes = done.body.recovery_codes as string[];
  assertEquals(codes.length, 10);
  assertEquals(new Set(codes).size, 10);
  return { secret, codes, cookie };
}

Deno.test("oathtool codes sign in on all three logins; reused and expired codes are refused", async () => {
  if (!haveSystem("two-factor logins", ["oathtool"])) return;
  const clock = new ManualClock(T0);
  await using t = await startTestServer({ clock });
  const { secret } = await enrol(t, clock);

  const bare = await adminLogin(t, {});
  assertEquals(bare.status, 401);
  assertEquals(bare.body, {
    error: "A two-factor code is required",
    status: 401,
    code: "totp_required",
    field: "totp_code",
  });
  assertEquals((await dnsLogin(t, {})).body.code, "totp_required");

  // The confirming code's step is taken: the same code is refused even on the next login.
  assertEquals(
    (await adminLogin(t, { totp_code: await oath(secret, T0) })).body.code,
    "totp_invalid",
  );

  clock.advance(STEP);
  const code1 = await oath(secret, clock.now());
  const ok = await adminLogin(t, { totp_code: code1 });
  assertEquals(ok.status, 200);
  assertEquals(ok.body.username, "admin");
  const reused = await dnsLogin(t, { totp_code: code1 });
  assertEquals(reused.status, 401);
  assertEquals(reused.body.code, "totp_invalid");

  clock.advance(STEP);
  const jwt = await dnsLogin(t, { totp_code: await oath(secret, clock.now()) });
  assertEquals(jwt.status, 200);
  assert(typeof jwt.body.token === "string");

  // Ten steps later: a code two steps old or two steps ahead is outside the window.
  clock.advance(10 * STEP);
  for (const at of [clock.now() - 2 * STEP, clock.now() + 2 * STEP]) {
    const r = await adminLogin(t, { totp_code: await oath(secret, at) });
    assertEquals(r.status, 401, `code of ${new Date(at).toISOString()}`);
    assertEquals(r.body.code, "totp_invalid");
  }
  // One step off is taken (clock drift).
  const drift = await adminLogin(t, { totp_code: await oath(secret, clock.now() - STEP) });
  assertEquals(drift.status, 200);

  clock.advance(STEP);
  const form = await formLogin(t, await oath(secret, clock.now()));
  assertEquals(form.status, 303);
  assertEquals(form.headers.get("location"), "/");
  assert(form.headers.getSetCookie().some((c) => c.startsWith("svc_session=")));

  // Without a code, the form's second step asks for it, carrying a ticket, never the password.
  const step1 = await formLogin(t, "");
  assertEquals(step1.status, 200);
  const html = await step1.text();
  const ticket = /name="ticket" value="([^"]+)"/.exec(html)?.[1];
  assert(ticket, "the second step carries a ticket");
  assert(!html.includes(ADMIN.password));
  const step2 = (totp_code: string, t2 = ticket) =>
    postForm(
      t,
      "/login",
      { username: "admin", password: "", ticket: t2, totp_code, next: "/" },
      "",
    );
  const wrong = await step2("000000");
  assertEquals(wrong.status, 401);
  const wrongHtml = await wrong.text();
  assertMatch(wrongHtml, /Invalid two-factor code/);
  assert(wrongHtml.includes(ticket), "a wrong code keeps the second step");
  clock.advance(STEP);
  const forged = ticket.slice(0, -2) + (ticket.endsWith("AA") ? "BB" : "AA");
  assertMatch(await (await step2(await oath(secret, clock.now()), forged)).text(), /has expired/);
  const signedIn = await step2(await oath(secret, clock.now()));
  assertEquals(signedIn.status, 303);
  assertEquals(signedIn.headers.get("location"), "/");
  clock.advance(6 * 60_000);
  const late = await step2(await oath(secret, clock.now()));
  assertEquals(late.status, 401);
  assertMatch(await late.text(), /The sign-in has expired; enter your password again/);
});

Deno.test("recovery codes sign in once each; wrong codes count as failed logins; secrets stay out of audit", async () => {
  if (!haveSystem("two-factor recovery codes", ["oathtool"])) return;
  const clock = new ManualClock(T0);
  await using t = await startTestServer({ clock });
  const { secret, codes } = await enrol(t, clock);

  const first = await adminLogin(t, { totp_code: codes[0] });
  assertEquals(first.status, 200);
  assertEquals((await adminLogin(t, { totp_code: codes[0] })).body.code, "totp_invalid");
  assertEquals((await dnsLogin(t, { totp_code: codes[1].toUpperCase() })).status, 200);
  assertEquals((await dnsLogin(t, { totp_code: codes[1] })).status, 401);
  assertEquals((await formLogin(t, codes[2])).status, 303);
  assertEquals((await formLogin(t, codes[2])).status, 401);

  const before = rawRows<{ id: number }>(t.store, "login_failures", ["id"], "id").length;
  assertEquals((await adminLogin(t, { totp_code: "000000" })).status, 401);
  const after = rawRows<{ id: number }>(t.store, "login_failures", ["id"], "id").length;
  assertEquals(after, before + 1);

  const cookie = await loginWithCode(t, secret, clock);
  const status = await call(`${t.admin}/api/v1/auth/two-factor`, { headers: { cookie } });
  assertEquals(status.body, {
    enabled: true,
    pending: false,
    recovery_codes_left: 7,
    required: false,
  });

  const audit = rawRows<Record<string, string>>(t.store, "audit", ["*"], "id");
  const text = JSON.stringify(audit);
  for (
    const s of [
      secret,
      secret.toLowerCase(),
      ...codes,
      ...codes.map((c) => c.replace("-", "")),
    ]
  ) {
    assert(!text.includes(s), `audit holds a secret: ${s}`);
  }
  assert(audit.some((r) => r.event_type === "auth.two_factor_enabled"));
  assert(audit.some((r) => /with a recovery code/.test(r.message)));
  const stored = rawRows<{ secret: string }>(t.store, "user_totp", ["secret"], "user_id");
  assertEquals(stored.length, 1);
  assertNotEquals(stored[0].secret, secret);
  assert(!stored[0].secret.includes(secret));
  const hashes = JSON.stringify(
    rawRows(t.store, "user_recovery_codes", ["code_hash"], "code_hash"),
  );
  for (const c of codes) assert(!hashes.includes(c) && !hashes.includes(c.replace("-", "")));

  // Disabling takes a code; after it, the password alone signs in again.
  clock.advance(STEP);
  const off = await call(`${t.admin}/api/v1/auth/two-factor/disable`, {
    method: "POST",
    headers: { cookie },
    json: { code: await oath(secret, clock.now()) },
  });
  assertEquals(off.status, 200);
  assertEquals((await adminLogin(t, {})).status, 200);
});

async function loginWithCode(t: TestServer, secret: string, clock: ManualClock): Promise<string> {
  clock.advance(STEP);
  const r = await adminLogin(t, { totp_code: await oath(secret, clock.now()) });
  assertEquals(r.status, 200);
  return r.headers.getSetCookie()[0].split(";")[0];
}
