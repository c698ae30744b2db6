/**
 * Browser side of islands: hydrates every `<palisade-island>` the server
 * rendered with the component of that name and the props it serialized.
 */
import { type ComponentType, h, hydrate } from "preact";

// deno-lint-ignore no-explicit-any
export function boot(islands: Record<string, ComponentType<any>>): void {
  for (const el of document.querySelectorAll<HTMLElement>("palisade-island[data-island]")) {
    const component = islands[el.dataset.island ?? ""];
    if (!component) continue;
    let props: Record<string, unknown> = {};
    try {
      props = JSON.parse(el.dataset.props ?? "{}");
    } catch {
      continue;
    }
    hydrate(h(component, props), el);
  }
}
