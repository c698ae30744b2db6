/**
 * Single sign-on in headless Chromium against a real OpenID provider
 * (oidc-provider, tests/helpers/oidc_provider.ts): the sign-in page's
 * provider button, the provider's own login and consent pages, and the
 * dashboard reached as a new user whose `groups` claim (netops) maps to
 * operator, without the two-factor enrolment operators are held to; and the
 * Single sign-on page's create, edit and delete.
 */
import { assert, assertEquals } from "../assert.ts";
import type { Page } from "playwright-core";
import { browserTest, signIn } from "../helpers/browser.ts";
import { startTestIdp } from "../helpers/oidc_provider.ts";
import { ADMIN, startTestServer } from "../helpers/test_server.ts";
import { axeViolations, BLOCKING, describeViolations } from "../helpers/axe.ts";

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
    // Operators must use two-factor sign-in; single sign-on users are exempt (docs/sso.md).
    await t.services.settings.put({ key: "auth.two_factor_roles", value: "operator" }, "test");
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

browserTest(
  "sso: the Single sign-on page creates a provider, edits it keeping the secret, and deletes it after a confirmation",
  async (browser) => {
    await using t = await startTestServer();
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(HANG_MS);
    const errors = palisadeErrors(page, t.admin);
    try {
      await signIn(page, t.admin, ADMIN.username, ADMIN.password);
      await page.getByRole("link", { name: "Single sign-on" }).click();
      await page.waitForURL(`${t.admin}/sso-providers`);
      const form = page.getByRole("region", { name: "New provider" });
      await form.getByLabel("Id", { exact: true }).fill("corp");
      await form.getByLabel("Display name").fill("Corp SSO");
      await form.getByLabel("Issuer").fill("https://idp.example.org");
      await form.getByLabel("Client id").fill("palisade");
      await form.getByLabel("Client secret").fill("the-client-secret");
      await form.getByLabel("Claim values to roles").fill("netops=operator\nadmins=administrator");
      await form.getByRole("button", { name: "Create provider" }).click();
      await page.waitForURL(`${t.admin}/sso-providers/corp`);
      const blocking = (await axeViolations(page, "/sso-providers/corp"))
        .filter((v) => BLOCKING.has(v.impact));
      assertEquals(blocking.length, 0, describeViolations(blocking));
      assert(!(await page.content()).includes("the-client-secret"), "the secret is never shown");

      await page.getByLabel("Display name").fill("Corp");
      await page.getByRole("button", { name: "Save provider" }).click();
      await page.getByText("Provider saved.").waitFor();
      const client = await t.services.sso.providers.client("corp");
      assertEquals([client.displayName, client.clientSecret], ["Corp", "the-client-secret"]);

      // Signed out, the sign-in page offers the provider.
      const login = await (await fetch(`${t.admin}/login`)).text();
      assert(login.includes(">Sign in with Corp</a>"), "the sign-in page has the button");
      await page.getByRole("link", { name: "Delete" }).click();
      await page.getByRole("button", { name: "Delete Corp" }).click();
      await page.waitForURL(`${t.admin}/sso-providers`);
      await page.getByText("No sign-in providers.").waitFor();
      const { records } = await t.services.audit.list({ resource_type: "sso_provider", limit: 50 });
      assertEquals(records.map((r) => r.event_type).reverse(), [
        "sso.provider_created",
        "sso.provider_updated",
        "sso.provider_deleted",
      ]);
      assert(records.every((r) => !r.message.includes("the-client-secret")), "no secret audited");
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
