/**
 * Server rendering of pages with Preact, wrapped in `_app` and `_layout`
 * components, with Fresh-style islands: an island is imported and used like
 * any component; a Preact `options.vnode` hook recognises it, renders it
 * inside a `<palisade-island>` marker carrying its props as JSON, and the page
 * gets the one script that hydrates every marker.
 */
import { type ComponentType, h, options, type VNode } from "preact";
import { renderToString } from "preact-render-to-string";
import type { PageProps } from "./define.ts";

export const ISLANDS_SCRIPT = "/static/build/islands.js";

const islandNames = new Map<unknown, string>();
let hookInstalled = false;
let wrapping = false;
let used: Set<string> | null = null;

function IslandBoundary(
  { name, component, props }: {
    name: string;
    component: ComponentType<Record<string, unknown>>;
    props: Record<string, unknown>;
  },
): VNode {
  used?.add(name);
  wrapping = true;
  const inner = h(component, props);
  wrapping = false;
  return h(
    "palisade-island",
    { "data-island": name, "data-props": JSON.stringify(props) },
    inner,
  ) as VNode;
}

/** Registers the island components so the hook can recognise them. */
export function registerIslands(islands: Record<string, ComponentType<never>>): void {
  for (const [name, component] of Object.entries(islands)) islandNames.set(component, name);
  if (hookInstalled) return;
  hookInstalled = true;
  const previous = options.vnode;
  options.vnode = (vnode) => {
    const name = !wrapping && typeof vnode.type === "function"
      ? islandNames.get(vnode.type)
      : undefined;
    if (name) {
      const { children: _children, ...props } = vnode.props as Record<string, unknown>;
      // Props cross to the browser as JSON; children cannot, so islands take none.
      const original = vnode.type;
      (vnode as { type: unknown }).type = IslandBoundary;
      (vnode as { props: unknown }).props = { name, component: original, props };
    }
    previous?.(vnode);
  };
}

export type Wrapper = ComponentType<PageProps<unknown> & { Component: ComponentType }>;

/** Renders `Page` inside its layouts and app shell; returns a full HTML response. */
export function renderPage(
  Page: ComponentType<PageProps<unknown>>,
  props: PageProps<unknown>,
  wrappers: Wrapper[],
  init: { status?: number; headers?: Headers } = {},
): Response {
  let inner: ComponentType = () => h(Page, props);
  for (const Wrap of [...wrappers].reverse()) {
    const Child: ComponentType = inner;
    inner = () => h(Wrap, { ...props, Component: Child }) as VNode;
  }
  const islands = new Set<string>();
  used = islands;
  let html: string;
  try {
    html = renderToString(h(inner, {}));
  } finally {
    used = null;
  }
  // A page that uses no island ships no JavaScript.
  if (islands.size > 0) {
    html = html.replace(
      "</body>",
      `<script type="module" src="${ISLANDS_SCRIPT}"></script></body>`,
    );
  }
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "text/html; charset=utf-8");
  return new Response(`<!DOCTYPE html>${html}`, { status: init.status ?? 200, headers });
}
