/**
 * Helpers of the dashboard tests: posting forms the way a browser does
 * (urlencoded, with the cookie and an Origin), seeding peers, measuring what
 * a page ships, and saving screenshots.
 */
import type { Page } from "playwright-core";
import type { TestServer } from "./test_server.ts";

/** POSTs `fields` urlencoded with the session cookie and our own Origin; no redirect is followed. */
export function postForm(
  t: TestServer,
  path: string,
  fields: Record<string, string>,
  cookie: string,
  opts: { origin?: string | null; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = {
    cookie,
    "content-type": "application/x-www-form-urlencoded",
    ...opts.headers,
  };
  const origin = opts.origin === undefined ? t.admin : opts.origin;
  if (origin !== null) headers.origin = origin;
  return fetch(`${t.admin}${path}`, {
    method: "POST",
    redirect: "manual",
    headers,
    body: new URLSearchParams(fields),
  });
}

/** GETs a page with the cookie; returns status and HTML. */
export async function getPage(
  t: TestServer,
  path: string,
  cookie: string,
): Promise<{ status: number; html: string; headers: Headers }> {
  const res = await fetch(`${t.admin}${path}`, { headers: { cookie }, redirect: "manual" });
  return { status: res.status, html: await res.text(), headers: res.headers };
}

/** The text of the `.field-error` paragraph of the control with this id, or null. */
export function fieldError(html: string, id: string): string | null {
  const m = new RegExp(`<p id="${id}-error" class="field-error"[^>]*>([^<]*)</p>`).exec(html);
  return m ? decode(m[1]) : null;
}

/** The text of the page's error that names no field (`.form-error`), or null. */
export function formError(html: string): string | null {
  const m = /<p(?: id="[^"]*")? class="form-error" role="alert">([^<]*)<\/p>/.exec(html);
  return m ? decode(m[1]) : null;
}

/** The text of the table row carrying `attr="value"`, tags removed and spaces collapsed, or null. */
export function rowText(html: string, attr: string, value: string): string | null {
  const m = new RegExp(`<tr[^>]*\\b${attr}="${value}"[^>]*>([\\s\\S]*?)</tr>`).exec(html);
  return m ? decode(m[1].replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim()) : null;
}

const decode = (s: string) =>
  s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** Creates an interface and `n` peers on it through the service (one transaction). */
export async function seedPeers(
  t: TestServer,
  n: number,
  iface = { name: "wg1", address_v4: "10.20.0.1/16" },
): Promise<{ interfaceId: string; peerIds: string[] }> {
  const { tunnels } = t.services;
  const i = await tunnels.interfaces.create(iface, "test");
  const peers = await tunnels.peers.createMany(
    i.id,
    Array.from({ length: n }, (_, k) => ({ name: `peer-${String(k).padStart(4, "0")}` })),
    "test",
  );
  return { interfaceId: i.id, peerIds: peers.map((p) => p.id) };
}

/** Gzip size of `bytes` (level of CompressionStream's gzip, like a server's). */
export async function gzipSize(bytes: Uint8Array): Promise<number> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream()
    .pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

/**
 * Bytes of JavaScript a page loads, gzipped: every `<script src>` and every
 * static import of those modules, each counted once.
 */
export async function pageJavaScript(
  t: TestServer,
  path: string,
  cookie: string,
): Promise<{ scripts: string[]; gzipBytes: number }> {
  const { html } = await getPage(t, path, cookie);
  const queue = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]);
  const seen = new Set<string>();
  let gzipBytes = 0;
  while (queue.length) {
    const src = queue.shift()!;
    if (seen.has(src)) continue;
    seen.add(src);
    const res = await fetch(new URL(src, t.admin), { headers: { cookie } });
    const bytes = new Uint8Array(await res.arrayBuffer());
    gzipBytes += await gzipSize(bytes);
    const text = new TextDecoder().decode(bytes);
    for (const m of text.matchAll(/\bimport\s*(?:[^'"()]*?from\s*)?["']([^"']+)["']/g)) {
      if (m[1].endsWith(".js")) queue.push(new URL(m[1], new URL(src, t.admin)).pathname);
    }
  }
  return { scripts: [...seen], gzipBytes };
}

export const SCREENSHOTS = new URL("../../test-output/screenshots/", import.meta.url);

/** Saves `name-light.png` and `name-dark.png` of the page as it is now. */
export async function screenshots(page: Page, name: string): Promise<string[]> {
  await Deno.mkdir(SCREENSHOTS, { recursive: true });
  const out: string[] = [];
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    const path = new URL(`${name}-${colorScheme}.png`, SCREENSHOTS).pathname;
    await page.screenshot({ path, fullPage: true });
    out.push(path);
  }
  await page.emulateMedia({ colorScheme: "light" });
  return out;
}

/**
 * Accessibility basics of the page as rendered: every control has a label,
 * every table header a scope, and there is one main landmark and one h1.
 * Returns the problems found (empty when none).
 */
export function accessibilityProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const controls = document.querySelectorAll<HTMLInputElement>(
      "input:not([type=hidden]), select, textarea",
    );
    for (const el of controls) {
      if (!el.labels?.length && !el.getAttribute("aria-label")) {
        problems.push(`<${el.tagName.toLowerCase()} name="${el.name}"> has no label`);
      }
    }
    for (const th of document.querySelectorAll("th")) {
      if (!th.getAttribute("scope")) problems.push(`<th>${th.textContent}</th> has no scope`);
    }
    if (document.querySelectorAll("main").length !== 1) problems.push("not one <main>");
    if (document.querySelectorAll("h1").length !== 1) problems.push("not one <h1>");
    return problems;
  });
}
