/**
 * Every dashboard page, in headless Chromium with light and with dark colour
 * scheme, checked by axe-core and photographed at desktop and phone width.
 * The pages come from the admin route manifest (routes/admin.gen.ts): a GET
 * page route that is neither walked nor excluded here with a reason fails the
 * test, so a page added later is checked too.
 */
import type { Browser, Page } from "playwright-core";
import { assert, assertEquals } from "../assert.ts";
import {
  axeViolations,
  BLOCKING,
  dashboardPageRoutes,
  describeViolations,
  fillPattern,
  pageSlug,
  type Violation,
} from "../helpers/axe.ts";
import { browserTest, signIn } from "../helpers/browser.ts";
import { SCREENSHOTS } from "../helpers/dashboard.ts";
import { seedDashboard } from "../helpers/seed_dashboard.ts";
import { ADMIN, startTestServer, type TestServer } from "../helpers/test_server.ts";

const NAME =
  "dashboard: every page has no serious or critical axe violation in light and dark, at desktop and phone width";
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
/** Bounds waits against a hang only. */
const HANG_MS = 15_000;

/** GET routes that answer a file rather than a page, so there is nothing to check or photograph. */
const EXCLUDED: Record<string, string> = {
  "/peers/:id/config": "the wg-quick file as an attachment",
  "/zones/:name/export": "the zone's master file as an attachment",
  "/backups/:id/download": "the backup's SQLite file as an attachment",
};

interface Target {
  label: string;
  path: string;
}

/** The pages to walk (login first, it is seen signed out), and the states a URL alone does not reach. */
function targets(ids: Record<string, string>): Target[] {
  const routes = dashboardPageRoutes();
  for (const pattern of Object.keys(EXCLUDED)) {
    assert(routes.some((r) => r.pattern === pattern), `excluded "${pattern}" is no route`);
  }
  const walked = routes.filter((r) => !(r.pattern in EXCLUDED))
    .map((r) => ({ label: pageSlug(r.pattern), path: fillPattern(r.pattern, ids) }))
    .sort((a, b) => Number(b.path === "/login") - Number(a.path === "/login"));
  // A zone without DNSSEC shows the enable form instead of keys and DS lines.
  return [...walked, { label: "zones-name-unsigned", path: "/zones/example.net" }];
}

/** How the walk went in one colour scheme. */
interface Walk {
  violations: Violation[];
  /** Pages wider than the phone's screen (something besides a table wrapper scrolls sideways). */
  overflowing: string[];
  /** Each page's background colour, to show that the dark scheme reaches every page. */
  backgrounds: Record<string, string>;
}

async function visit(page: Page, base: string, target: Target): Promise<void> {
  const res = await page.goto(`${base}${target.path}`, { waitUntil: "load" });
  assertEquals(res?.status(), 200, target.path);
  assertEquals(new URL(page.url()).pathname, target.path.split("?")[0], "not redirected");
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: new URL(`${name}.png`, SCREENSHOTS).pathname, fullPage: true });
}

async function walk(
  browser: Browser,
  t: TestServer,
  pages: Target[],
  colorScheme: "light" | "dark",
): Promise<Walk> {
  const context = await browser.newContext({ colorScheme, viewport: DESKTOP });
  const page = await context.newPage();
  page.setDefaultTimeout(HANG_MS);
  const out: Walk = { violations: [], overflowing: [], backgrounds: {} };
  const suffix = colorScheme === "dark" ? "-dark" : "";
  try {
    for (const target of pages) {
      if (target.path !== "/login" && new URL(page.url()).pathname === "/login") {
        await signIn(page, t.admin, ADMIN.username, ADMIN.password);
      }
      await page.setViewportSize(DESKTOP);
      await visit(page, t.admin, target);
      const label = `${target.path} (${colorScheme})`;
      out.violations.push(...await axeViolations(page, `${label} 1280`));
      out.backgrounds[target.path] = await page.evaluate(() =>
        getComputedStyle(document.body).backgroundColor
      );
      await shoot(page, `${target.label}-1280${suffix}`);
      await page.setViewportSize(PHONE);
      out.violations.push(...await axeViolations(page, `${label} 390`));
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      if (wide > PHONE.width) out.overflowing.push(`${label}: ${wide} px`);
      await shoot(page, `${target.label}-390${suffix}`);
    }
  } finally {
    await context.close();
  }
  return out;
}

browserTest(NAME, async (browser) => {
  await using t = await startTestServer();
  const ids = await seedDashboard(t);
  const pages = targets(ids);
  const cookie = await t.login();
  for (const pattern of Object.keys(EXCLUDED)) {
    const res = await fetch(`${t.admin}${fillPattern(pattern, ids)}`, { headers: { cookie } });
    await res.body?.cancel();
    assertEquals(res.status, 200, pattern);
    assert(
      res.headers.get("content-disposition")?.startsWith("attachment"),
      `${pattern} is an attachment`,
    );
  }
  await Deno.mkdir(SCREENSHOTS, { recursive: true });
  const started = performance.now();
  const light = await walk(browser, t, pages, "light");
  const dark = await walk(browser, t, pages, "dark");
  const all = [...light.violations, ...dark.violations];
  console.log(
    `checked ${pages.length} pages in light and dark, at 1280 and 390 px, in ${
      Math.round(performance.now() - started)
    } ms:\n${pages.map((p) => `  ${p.path}`).join("\n")}\nexcluded:\n${
      Object.entries(EXCLUDED).map(([p, why]) => `  ${p}: ${why}`).join("\n")
    }\nscreenshots in ${SCREENSHOTS.pathname}`,
  );
  const minor = all.filter((v) => !BLOCKING.has(v.impact));
  if (minor.length) console.log(`moderate or minor:\n${describeViolations(minor)}`);
  const blocking = all.filter((v) => BLOCKING.has(v.impact));
  assertEquals(blocking.length, 0, `serious or critical:\n${describeViolations(blocking)}`);
  const undarkened = pages.map((p) => p.path)
    .filter((p) => light.backgrounds[p] === dark.backgrounds[p]);
  assertEquals(undarkened, [], "pages whose background is the same in dark mode");
  assertEquals(
    [...light.overflowing, ...dark.overflowing],
    [],
    "pages scrolling sideways at 390 px",
  );
});
