/**
 * Passkeys in real headless Chromium with its virtual authenticator
 * (DevTools protocol `WebAuthn.addVirtualAuthenticator`): a passkey added on
 * the Security page signs in without a password, a replayed assertion is
 * refused, it can be renamed, a deleted passkey no longer signs in; after the password, a
 * passkey is the second step, another user's passkey is refused there, and
 * a registered passkey satisfies a role's two-factor requirement.
 */
import { assert, assertEquals, assertStringIncludes } from "../assert.ts";
import { axeViolations, BLOCKING, describeViolations } from "../helpers/axe.ts";
import { browserTest, watchConsole } from "../helpers/browser.ts";
import {
  addPasskey,
  capturePasskeyPost,
  localhostBase,
  virtualAuthenticator,
} from "../helpers/passkey_browser.ts";
import { rawRow } from "../helpers/raw_sql.ts";
import { ADMIN, call, startTestServer, type TestServer } from "../helpers/test_server.ts";
import type { Page } from "playwright-core";

/** Bounds waits against a hang only. */
const HANG_MS = 15_000;
const BOB = { username: "bob", password: "bob-password-12345" };

async function signInWithPassword(page: Page, base: string, who: typeof ADMIN): Promise<void> {
  await page.goto(`${base}/login`);
  await page.getByLabel("Username").fill(who.username);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

async function expectAxeClean(page: Page, label: string): Promise<void> {
  const blocking = (await axeViolations(page, label)).filter((v) => BLOCKING.has(v.impact));
  assertEquals(blocking.length, 0, describeViolations(blocking));
}

async function userId(t: TestServer, username: string): Promise<string> {
  return (await t.services.users.list()).find((u) => u.username === username)!.id;
}

async function auditMessages(t: TestServer, types: string[]): Promise<string[]> {
  const all = await t.services.audit.list({ limit: 200, offset: 0 });
  // Newest first in the trail; oldest first here.
  return all.records.reverse().filter((e) => types.includes(e.event_type)).map((e) =>
    `${e.event_type}: ${e.message}`
  );
}

browserTest(
  "passkeys: one added on the Security page signs in without a password, a replayed assertion is refused, it can be renamed, and a deleted one no longer signs in",
  async (browser) => {
    await using t = await startTestServer();
    const base = localhostBase(t.admin);
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(HANG_MS);
    const errors = watchConsole(page);
    try {
      await virtualAuthenticator(context, page);
      await signInWithPassword(page, base, ADMIN);
      await page.waitForURL(`${base}/`);
      await addPasskey(page, base, "Laptop");
      const row = page.getByRole("row").filter({ hasText: "Laptop" });
      assertStringIncludes(await row.innerText(), "Never");
      await expectAxeClean(page, "/account/security (passkey added)");
      const stored = rawRow<{ credential_id: string; public_key: string }>(
        t.store,
        "user_passkeys",
        ["credential_id", "public_key"],
        { user_id: await userId(t, ADMIN.username) },
      )!;
      const html = await page.content();
      assert(!html.includes(stored.public_key), "the public key is not on the page");

      await context.clearCookies();
      await page.goto(`${base}/login`);
      await expectAxeClean(page, "/login (with passkey button)");
      const posted = capturePasskeyPost(page);
      await Promise.all([
        page.waitForURL(`${base}/`),
        page.getByRole("button", { name: "Sign in with a passkey" }).click(),
      ]);
      const last = await t.services.auth.passkeys.list(await userId(t, ADMIN.username));
      assert(last[0].last_used_at !== null, "the sign-in is recorded as a use");

      // The same answer again: its challenge was taken.
      const replay = await fetch(`${base}/login`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: await posted,
        redirect: "manual",
      });
      assertStringIncludes(await replay.text(), "The passkey was not accepted");
      assertEquals(replay.status, 401);
      assertEquals(replay.headers.getSetCookie(), []);

      await page.goto(`${base}/account/security`);
      await page.getByRole("link", { name: "Rename passkey Laptop" }).click();
      await expectAxeClean(page, "/account/security (rename a passkey)");
      await page.getByLabel("New name").fill("Work laptop");
      await Promise.all([
        page.waitForURL(`${base}/account/security?done=passkey_renamed`),
        page.getByRole("button", { name: "Rename passkey" }).click(),
      ]);
      await page.getByRole("link", { name: "Delete passkey Work laptop" }).click();
      await expectAxeClean(page, "/account/security (confirm passkey deletion)");
      await Promise.all([
        page.waitForURL(`${base}/account/security?done=passkey_deleted`),
        page.getByRole("button", { name: "Delete this passkey" }).click(),
      ]);
      assertEquals(await page.getByRole("row").filter({ hasText: "laptop" }).count(), 0);
      assertEquals(await t.services.auth.passkeys.list(await userId(t, ADMIN.username)), []);

      // The authenticator still holds it; the server no longer accepts it.
      await context.clearCookies();
      await page.goto(`${base}/login`);
      await page.getByRole("button", { name: "Sign in with a passkey" }).click();
      await page.getByRole("alert").filter({ hasText: "The passkey was not accepted" }).waitFor();

      const audit = await auditMessages(t, [
        "auth.passkey_added",
        "auth.passkey_renamed",
        "auth.passkey_removed",
        "auth.login",
        "auth.login_failed",
      ]);
      assertEquals(audit.filter((m) => m.startsWith("auth.passkey")), [
        'auth.passkey_added: Added passkey "Laptop"',
        'auth.passkey_renamed: Renamed a passkey to "Work laptop"',
        'auth.passkey_removed: Deleted passkey "Work laptop"',
      ]);
      assert(audit.some((m) => /^auth\.login: Logged in from .* with a passkey$/.test(m)));
      assertEquals(audit.filter((m) => m.includes("Failed passkey sign-in")).length, 2);
      for (const m of audit) {
        assert(!m.includes(stored.credential_id) && !m.includes(stored.public_key), m);
      }
    } finally {
      await context.close();
    }
    assertEquals(errors.filter((e) => !e.includes("401")), []);
  },
);

browserTest(
  "passkeys: after the password a passkey is the second step, another user's passkey is refused there, and it satisfies a role's two-factor requirement",
  async (browser) => {
    await using t = await startTestServer();
    const base = localhostBase(t.admin);
    const token = await t.createToken("settings");
    await t.addUser(BOB.username, "operator", BOB.password);
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(HANG_MS);
    const errors = watchConsole(page);
    try {
      const { cdp, authenticatorId } = await virtualAuthenticator(context, page);
      const credentials = async () =>
        (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials;
      // Bob's passkey, kept aside; then only the administrator's in the authenticator.
      await signInWithPassword(page, base, BOB);
      await page.waitForURL(`${base}/`);
      await addPasskey(page, base, "Bob's key");
      const [bobs] = await credentials();
      await cdp.send("WebAuthn.clearCredentials", { authenticatorId });
      await context.clearCookies();
      await signInWithPassword(page, base, ADMIN);
      await page.waitForURL(`${base}/`);
      await addPasskey(page, base, "Admin key");
      const [admins] = await credentials();

      // The role now requires two-factor sign-in: the passkey satisfies it.
      const set = await call(`${t.admin}/api/v1/system/settings`, {
        method: "PUT",
        headers: { authorization: `Bearer ${token}` },
        json: { key: "auth.two_factor_roles", value: "administrator" },
      });
      assertEquals(set.status, 200);

      await context.clearCookies();
      await signInWithPassword(page, base, ADMIN);
      const usePasskey = page.getByRole("button", { name: "Use a passkey" });
      await usePasskey.waitFor();
      assertEquals(await page.getByLabel("Two-factor code").count(), 0, "no TOTP: no code field");
      await expectAxeClean(page, "/login (second step, passkey)");

      await cdp.send("WebAuthn.clearCredentials", { authenticatorId });
      await cdp.send("WebAuthn.addCredential", { authenticatorId, credential: bobs });
      await usePasskey.click();
      await page.getByRole("alert").filter({ hasText: "The passkey was not accepted" }).waitFor();
      assertEquals((await context.cookies()).filter((c) => c.name === "svc_session"), []);

      await cdp.send("WebAuthn.clearCredentials", { authenticatorId });
      await cdp.send("WebAuthn.addCredential", { authenticatorId, credential: admins });
      await Promise.all([
        page.waitForURL(`${base}/`),
        page.getByRole("button", { name: "Use a passkey" }).click(),
      ]);
      // Not sent to enrolment: the dashboard opens.
      await page.goto(`${base}/peers`);
      assertEquals(new URL(page.url()).pathname, "/peers");

      const audit = await auditMessages(t, ["auth.login", "auth.login_failed"]);
      assert(
        audit.some((m) => m.includes(`Failed two-factor passkey for "admin"`)),
        audit.join("\n"),
      );
      assert(audit.at(-1)!.endsWith("with a passkey"), audit.join("\n"));
    } finally {
      await context.close();
    }
    assertEquals(errors.filter((e) => !e.includes("401")), []);
  },
);
