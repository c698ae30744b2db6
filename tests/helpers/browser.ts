/**
 * Debian's Chromium driven by playwright-core (Playwright's own browser
 * download is not reachable here). Flags keep it off the network.
 */
import { type Browser, chromium, type Page } from "playwright-core";
import { haveSystem } from "./system.ts";

export const CHROMIUM = "/usr/bin/chromium";

/** Launches headless Chromium, or returns null (with a SKIP line) when it is not installed. */
export async function launchBrowser(testName: string): Promise<(Browser & AsyncDisposable) | null> {
  if (!haveSystem(testName, ["chromium"])) return null;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  return Object.assign(browser, { [Symbol.asyncDispose]: () => browser.close() });
}

/**
 * Registers a Chromium test: it prints a SKIP line and passes without Chromium
 * (or fails when system tests are required), and closes the browser after.
 */
export function browserTest(name: string, fn: (browser: Browser) => Promise<void>): void {
  Deno.test({
    name,
    // playwright-core keeps pipes and timers of its own across the test boundary.
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      await using browser = await launchBrowser(name);
      if (!browser) return;
      await fn(browser);
    },
  });
}

/** Collects console errors and uncaught page errors, to assert none happened. */
export function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(msg.text());
  });
  page.on("pageerror", (err) => errors.push(String(err)));
  return errors;
}

/** Signs in through the dashboard's login form. */
export async function signIn(
  page: Page,
  base: string,
  username: string,
  password: string,
): Promise<void> {
  await page.goto(`${base}/login`);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await Promise.all([
    page.waitForURL(`${base}/`),
    page.getByRole("button", { name: "Sign in", exact: true }).click(),
  ]);
}

/** Calls of each function of some scripts, counted by the browser (not timed). */
export interface CallCounter {
  /**
   * How often each function of the scripts whose URL contains `urlPart` ran
   * since the last `take()` (or since counting began), most first; resets the counts.
   */
  take(urlPart: string): Promise<number[]>;
}

/**
 * Starts V8's precise coverage with call counts on `page` (Chromium's DevTools
 * protocol). Start it before the page loads the scripts to count.
 */
export async function countCalls(page: Page): Promise<CallCounter> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.startPreciseCoverage", { callCount: true, detailed: false });
  return {
    async take(urlPart) {
      const { result } = await cdp.send("Profiler.takePreciseCoverage");
      return result.filter((s) => s.url.includes(urlPart))
        .flatMap((s) => s.functions.map((f) => f.ranges[0]?.count ?? 0))
        .sort((a, b) => b - a);
    },
  };
}
