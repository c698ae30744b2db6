/**
 * axe-core (Deque's accessibility engine, from npm) run inside a real page,
 * and the list of the dashboard's pages taken from the admin route manifest,
 * so that a page added later is walked too (or must be excluded by name).
 */
import axe from "axe-core";
import type { Page } from "playwright-core";
import { routes } from "../../routes/admin.gen.ts";
import { resolveRoutes } from "../../server/http/route_table.ts";

/** One axe finding of one page: the rule, its impact and the elements (CSS selectors). */
export interface Violation {
  page: string;
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/** Impacts the dashboard must have none of. */
export const BLOCKING = new Set(["serious", "critical"]);

/**
 * Runs every axe rule on the page as it is now (WCAG 2.x A and AA, and
 * axe's best practices) and returns the violations, each labelled with `label`.
 */
export async function axeViolations(page: Page, label: string): Promise<Violation[]> {
  const loaded = await page.evaluate(() => "axe" in globalThis);
  // Evaluated through the DevTools protocol: the pages' CSP refuses inline script tags.
  if (!loaded) await page.evaluate(axe.source);
  const found = await page.evaluate(async () => {
    type Result = {
      violations: {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: unknown[] }[];
      }[];
    };
    const run = (globalThis as unknown as { axe: { run(): Promise<Result> } }).axe.run;
    const result = await run();
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? "unknown",
      help: v.help,
      targets: v.nodes.map((n) => n.target.map(String).join(" ")),
    }));
  });
  return found.map((v) => ({ page: label, ...v }));
}

/** One line per violation, for a failure message or the test's log. */
export function describeViolations(vs: readonly Violation[]): string {
  return vs.map((v) => `${v.page}: ${v.id} (${v.impact}) ${v.help} at ${v.targets.join(", ")}`)
    .join("\n");
}

/** A GET route of the admin listener's dashboard (or the login page), as its URL pattern. */
export interface PageRoute {
  pattern: string;
  file: string;
}

/**
 * Every GET page route of the dashboard: the files under `(dashboard)/` in
 * `routes/admin.gen.ts` answering GET, and `/login`.
 */
export function dashboardPageRoutes(): PageRoute[] {
  return resolveRoutes(routes)
    .filter((r) =>
      r.module.meta?.GET && (r.file.startsWith("(dashboard)/") || r.pattern === "/login")
    )
    .map((r) => ({ pattern: r.pattern, file: r.file }));
}

/**
 * The pattern with each parameter replaced by a value: `:name` by `values.name`,
 * `:id` by the value named after the segment before it (`/peers/:id` → `values.peers`).
 * Throws naming the pattern when no value is known, so a new page cannot be skipped silently.
 */
export function fillPattern(pattern: string, values: Readonly<Record<string, string>>): string {
  const parts = pattern.split("/");
  return parts.map((part, i) => {
    if (!part.startsWith(":")) return part;
    const key = part === ":id" ? parts[i - 1] : part.slice(1);
    const value = values[key];
    if (value === undefined) {
      throw new Error(`No seeded value for "${part}" of "${pattern}": add one to the walk`);
    }
    return encodeURIComponent(value);
  }).join("/");
}

/** A file name for the page's screenshots: `/zones/:name/records/:id` → `zones-name-records-id`. */
export function pageSlug(pattern: string): string {
  return pattern === "/" ? "overview" : pattern.slice(1).replace(/[/:]+/g, "-");
}
