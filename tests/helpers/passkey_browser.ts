/**
 * Passkeys in headless Chromium: a virtual authenticator through the
 * DevTools protocol (WebAuthn domain), and the dashboard steps the passkey
 * tests share.
 */
import type { BrowserContext, CDPSession, Page } from "playwright-core";

/** A virtual platform authenticator that keeps discoverable credentials and verifies its user. */
export async function virtualAuthenticator(
  context: BrowserContext,
  page: Page,
): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

/** WebAuthn needs a domain as RP ID, not an IP address: the dashboard as http://localhost:port. */
export const localhostBase = (admin: string) => admin.replace("127.0.0.1", "localhost");

/** Adds a passkey named `name` from the Security page; returns when the page says it was added. */
export async function addPasskey(page: Page, base: string, name: string): Promise<void> {
  await page.goto(`${base}/account/security`);
  await page.getByLabel("Passkey name").fill(name);
  await Promise.all([
    page.waitForURL(`${base}/account/security?done=passkey_added`),
    page.getByRole("button", { name: "Add a passkey" }).click(),
  ]);
}

/**
 * The body of the next form POST to /login that carries a passkey's answer,
 * captured as the browser sends it (to replay it).
 */
export function capturePasskeyPost(page: Page): Promise<string> {
  return new Promise((resolve) => {
    page.on("request", (req) => {
      const body = req.postData();
      if (req.method() === "POST" && req.url().endsWith("/login") && body?.includes("credential")) {
        resolve(body);
      }
    });
  });
}
