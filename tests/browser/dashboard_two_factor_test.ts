/**
 * Two-factor sign-in in headless Chromium, in the states the page walk
 * (dashboard_axe_test.ts) cannot reach by URL: the Security page
 * mid-enrolment (QR code shown), with the recovery codes shown once, and the
 * second sign-in step (code form), each checked by axe in light and dark;
 * and an administrator resetting another user's second factors from the
 * Users page through its confirmation page. Codes come from `oathtool`.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { axeViolations, BLOCKING, describeViolations } from "../helpers/axe.ts";
import { browserTest, signIn, watchConsole } from "../helpers/browser.ts";
import { rawRows } from "../helpers/raw_sql.ts";
import { SoftAuthenticator } from "../helpers/soft_authenticator.ts";
import { haveSystem, run } from "../helpers/system.ts";
import { ADMIN, startTestServer } from "../helpers/test_server.ts";

/** Bounds waits against a hang only. */
const HANG_MS = 15_000;
const DESKTOP = { width: 1280, height: 800 };
const RP = { id: "localhost", origin: "http://localhost:8000" };

/** The code oathtool computes for `secret` (base32), `offset` steps from now. */
async function oath(secret: string, offset = 0): Promise<string> {
  const at = Math.floor(Date.now() / 1000) + offset * 30;
  return (await run("oathtool", ["--totp", "-b", secret, "--now", `@${at}`])).stdout.trim();
}

/** Serious or critical axe violations of the page as it is, in light and in dark. */
async function blocking(page: Page, label: string): Promise<string> {
  const found = [];
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    found.push(...await axeViolations(page, `${label} (${colorScheme})`));
  }
  await page.emulateMedia({ colorScheme: "light" });
  return describeViolations(found.filter((v) => BLOCKING.has(v.impact)));
}

browserTest(
  "dashboard: the Security page mid-enrolment and the second sign-in step have no serious axe violation, light or dark",
  async (browser) => {
    if (!haveSystem("two-factor pages in a browser", ["oathtool"])) return;
    await using t = await startTestServer();
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    page.setDefaultTimeout(HANG_MS);
    const errors = watchConsole(page);
    try {
      await signIn(page, t.admin, ADMIN.username, ADMIN.password);
      await page.goto(`${t.admin}/account/security`);
      await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
      const qr = page.getByRole("img", { name: "QR code of the two-factor secret" });
      await qr.waitFor();
      assertEquals(await blocking(page, "/account/security (QR shown)"), "");
      const secret = (await page.locator("code[data-secret]").innerText()).trim();
      assertMatch(secret, /^[A-Z2-7]{32}$/);
      await page.getByLabel("Code", { exact: true }).fill(await oath(secret));
      await page.getByRole("button", { name: "Turn two-factor sign-in on" }).click();
      await page.getByRole("heading", { name: "Your recovery codes" }).waitFor();
      assertEquals(await page.locator(".recovery-codes li").count(), 10);
      assertEquals(await blocking(page, "/account/security (recovery codes)"), "");

      // The second step, in a browser that is not signed in.
      await page.context().clearCookies();
      await page.goto(`${t.admin}/login`);
      await page.getByLabel("Username").fill(ADMIN.username);
      await page.getByLabel("Password").fill(ADMIN.password);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      const code = page.getByLabel("Two-factor code");
      await code.waitFor();
      assertEquals(await blocking(page, "/login (second step)"), "");
      await code.fill("000000");
      await page.getByRole("button", { name: "Verify" }).click();
      await page.getByText("Invalid two-factor code").waitFor();
      assertEquals(await blocking(page, "/login (second step, wrong code)"), "");
      // The enrolment's step is taken; the next one is inside the ±1 step window.
      await page.getByLabel("Two-factor code").fill(await oath(secret, 1));
      await Promise.all([
        page.waitForURL(`${t.admin}/`),
        page.getByRole("button", { name: "Verify" }).click(),
      ]);
      // The wrong code's page is itself a 401, which Chromium reports; nothing else.
      assertEquals(errors.filter((e) => !e.includes("status of 401")), []);
    } finally {
      await context.close();
    }
  },
);

browserTest(
  "dashboard: an administrator resets a user's two-factor sign-in from the Users page through its confirmation",
  async (browser) => {
    if (!haveSystem("two-factor reset in a browser", ["oathtool"])) return;
    await using t = await startTestServer();
    await t.addUser("olga", "operator");
    const olga = (await t.services.users.credentials("olga"))!.user;
    const { twoFactor, passkeys } = t.services.auth;
    const { secret } = await twoFactor.begin(olga);
    await twoFactor.confirm(olga, await oath(secret));
    const key = await SoftAuthenticator.create();
    await passkeys.register(
      olga,
      "olga's key",
      await key.register(await passkeys.registrationOptions(olga, RP), RP.origin),
      RP,
    );
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    page.setDefaultTimeout(HANG_MS);
    const errors = watchConsole(page);
    try {
      await signIn(page, t.admin, ADMIN.username, ADMIN.password);
      await page.goto(`${t.admin}/users`);
      const cell = page.locator('[data-second-factors="olga"]');
      assertEquals((await cell.locator("span").first().innerText()).trim(), "TOTP, 1 passkey");
      // One's own row points to the Security page instead.
      const own = page.locator('[data-second-factors="admin"]');
      assertEquals(await own.getByRole("link", { name: "Security page" }).count(), 1);
      assertEquals(await own.getByRole("link", { name: /Reset two-factor/ }).count(), 0);

      await cell.getByRole("link", { name: "Reset two-factor of olga" }).click();
      await page.waitForURL(`${t.admin}/users/${olga.id}/reset-two-factor`);
      const question = page.locator("#confirm-question");
      assertMatch(await question.innerText(), /Reset the two-factor sign-in of olga\?/);
      assertMatch(await page.locator("form.confirm").innerText(), /Passkeys removed: 1/);
      assertEquals(await blocking(page, "/users/:id/reset-two-factor"), "");
      // Cancel leaves everything as it was.
      await page.getByRole("link", { name: "Cancel" }).click();
      await page.waitForURL(`${t.admin}/users`);
      assert(await twoFactor.isEnabled(olga.id));

      await cell.getByRole("link", { name: "Reset two-factor of olga" }).click();
      await Promise.all([
        page.waitForURL(`${t.admin}/users?done=two_factor_reset`),
        page.getByRole("button", { name: "Reset two-factor of olga" }).click(),
      ]);
      await page.getByText("Two-factor sign-in reset").waitFor();
      assertEquals((await cell.innerText()).trim(), "none");
      assertEquals(await twoFactor.isEnabled(olga.id), false);
      assertEquals(rawRows(t.store, "user_passkeys", ["id"], "id"), []);
      assertEquals(rawRows(t.store, "user_recovery_codes", ["user_id"], "user_id"), []);
      assertEquals(errors, []);
    } finally {
      await context.close();
    }
  },
);
