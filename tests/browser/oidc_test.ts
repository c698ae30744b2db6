/**
 * Single sign-on in headless Chromium against a real OpenID provider
 * (oidc-provider, tests/helpers/oidc_provider.ts): the sign-in page's
 * provider button, the provider's own login and consent pages, and the
 * dashboard reached as a new user whose `groups` claim (netops) maps to
 * operator.
 */
import { assert, assertEquals } from "../assert.ts";
import type { Page } from "playwright-core";
import { browserTest } from "../helpers/browser.ts";
import { startTestIdp } from "../helpers/oidc_provider.ts";
import { startTestServer } from "../helpers/test_server.ts";

const HANG_MS = 15_000;

browserTest(
  "sso: signing in with a provider creates the user with the role its group maps to and lands on the dashboard",
  async (browser) => {
    await using t = await startTestServer();
    await using idp = await startTestIdp({ redirectUri: `${t.admin}/sso/callback` });
    await t.services.sso.providers.create("admin", {
      id: "test-idp",
      display_name: "Test IdP",
      issuer: idp.issuer,
      client_id: idp.clientId,
      client_secret: idp.clientSecret,
      scopes: "openid email profile groups",
      claim: "groups",
      role_map: "netops=operator\nadmins=administrator",
      enabled: true,
    });
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(HANG_MS);
    const errors = palisadeErrors(page, t.admin);
    try {
      await page.goto(`${t.admin}/login`);
      await page.getByRole("link", { name: "Sign in with Test IdP" }).click();
      await page.waitForURL((u) => u.href.startsWith(idp.issuer));
      await page.locator('input[name="login"]').fill("nora");
      await page.locator('input[name="password"]').fill("anything");
      await page.locator('button[type="submit"]').click();
      // The consent page of devInteractions.
      await page.locator('button[type="submit"]').click();
      await page.waitForURL(`${t.admin}/`);
      assert(!page.url().includes("/login"), "signed in");
      const user = (await t.services.users.list()).find((u) => u.username === "nora");
      assertEquals([user?.role, user?.email], ["operator", "nora@idp.example"]);
      // The session is nora's: her name is on the page.
      assert((await page.content()).includes("nora"), "the dashboard names the signed-in user");
    } finally {
      await context.close();
    }
    assertEquals(errors, []);
  },
);

/** Console and page errors of Palisade's pages (the provider's own pages load outside resources). */
function palisadeErrors(page: Page, base: string): string[] {
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error" && msg.location().url.startsWith(base)) errors.push(msg.text());
  });
  page.on("pageerror", (err) => {
    if (page.url().startsWith(base)) errors.push(String(err));
  });
  return errors;
}
