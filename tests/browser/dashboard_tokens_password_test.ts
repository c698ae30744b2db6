/**
 * The API tokens and change-password pages in headless Chromium: a token
 * made from the page is shown once with a copy button, is gone from the page
 * after a reload, and is revoked through its confirmation; a password change
 * in one browser ends the session of another browser signed in as the same
 * user, and the new password signs in.
 */
import { assert, assertEquals } from "../assert.ts";
import { axeViolations, BLOCKING, describeViolations } from "../helpers/axe.ts";
import { browserTest, signIn, watchConsole } from "../helpers/browser.ts";
import { ADMIN, startTestServer } from "../helpers/test_server.ts";

/** Bounds waits against a hang only. */
const HANG_MS = 15_000;
const DESKTOP = { width: 1280, height: 800 };

browserTest(
  "dashboard: an API token made from its page is shown once with a copy button, absent after a reload, and revoked through its confirmation",
  async (browser) => {
    await using t = await startTestServer();
    const context = await browser.newContext({
      viewport: DESKTOP,
      permissions: ["clipboard-read", "clipboard-write"],
    });
    const page = await context.newPage();
    page.setDefaultTimeout(HANG_MS);
    const errors = watchConsole(page);
    try {
      await signIn(page, t.admin, ADMIN.username, ADMIN.password);
      await page.goto(`${t.admin}/tokens`);
      const form = page.getByRole("region", { name: "New API token" });
      await form.getByLabel("Name").fill("ci-deploy");
      await form.getByLabel("Lifetime in days").fill("30");
      await form.getByRole("button", { name: "Create token" }).click();
      const secret = page.locator("#new-token-value");
      await secret.waitFor();
      const raw = (await secret.innerText()).trim();
      assert(/^svc_[0-9a-f-]{36}_/.test(raw), `a raw token is shown: "${raw.slice(0, 8)}…"`);
      const [stored] = await t.services.auth.tokens.list(
        (await t.services.users.list()).find((u) => u.username === ADMIN.username)!,
      );
      assertEquals([stored.name, raw.startsWith(`svc_${stored.id}_`)], ["ci-deploy", true]);
      const blocking = (await axeViolations(page, "/tokens (created)"))
        .filter((v) => BLOCKING.has(v.impact));
      assertEquals(blocking.length, 0, describeViolations(blocking));

      await page.getByRole("button", { name: "Copy token" }).click();
      await page.getByRole("status").filter({ hasText: "Copied." }).waitFor();
      assertEquals(await page.evaluate(() => navigator.clipboard.readText()), raw);

      // Shown on the answer to the POST only: a reload GETs the list.
      await page.goto(`${t.admin}/tokens`);
      const row = page.locator(`tr[data-token-id="${stored.id}"]`);
      assertEquals((await row.innerText()).split("\t").slice(0, 2), ["ci-deploy", stored.prefix]);
      assert(
        !(await page.content()).includes(raw),
        "the raw token is not on the page after reload",
      );
      assertEquals(await page.locator("#new-token-value").count(), 0);

      await row.getByRole("link", { name: "Revoke" }).click();
      await page.waitForURL(`${t.admin}/tokens/${stored.id}/revoke`);
      await page.getByRole("button", { name: "Revoke ci-deploy" }).click();
      await page.waitForURL(`${t.admin}/tokens?done=revoked`);
      await page.getByText("You have no API tokens.").waitFor();
      const res = await fetch(`${t.admin}/api/v1/auth/session`, {
        headers: { authorization: `Bearer ${raw}` },
      });
      await res.body?.cancel();
      assertEquals(res.status, 401, "the revoked token is refused");
    } finally {
      await context.close();
    }
    assertEquals(errors, []);
  },
);

browserTest(
  "dashboard: changing the password in one browser signs out another browser of the same user, and the new password signs in",
  async (browser) => {
    await using t = await startTestServer();
    const NEW = "a brand new passphrase 42";
    const first = await browser.newContext({ viewport: DESKTOP });
    const second = await browser.newContext({ viewport: DESKTOP });
    try {
      const a = await first.newPage();
      const b = await second.newPage();
      a.setDefaultTimeout(HANG_MS);
      b.setDefaultTimeout(HANG_MS);
      await signIn(a, t.admin, ADMIN.username, ADMIN.password);
      await signIn(b, t.admin, ADMIN.username, ADMIN.password);
      await b.goto(`${t.admin}/tokens`);
      assertEquals(new URL(b.url()).pathname, "/tokens", "the second browser is signed in");

      await a.goto(`${t.admin}/account/password`);
      await a.getByLabel("Current password").fill(ADMIN.password);
      await a.getByLabel("New password", { exact: true }).fill(NEW);
      await a.getByLabel("Repeat the new password").fill(NEW);
      await a.getByRole("button", { name: "Change password" }).click();
      await a.waitForURL(`${t.admin}/login?done=password`);
      await a.getByText("Password changed and every session ended").waitFor();

      // The second browser still holds its cookie; the server no longer knows it.
      await b.goto(`${t.admin}/peers`);
      assertEquals(new URL(b.url()).pathname, "/login", "the second browser lands on /login");

      await signIn(b, t.admin, ADMIN.username, NEW);
      assertEquals(new URL(b.url()).pathname, "/");
      assertEquals(
        await fetch(`${t.admin}/api/v1/auth/login`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(ADMIN),
        }).then(async (r) => (await r.body?.cancel(), r.status)),
        401,
        "the old password is refused",
      );
    } finally {
      await first.close();
      await second.close();
    }
  },
);
