import type { ComponentChildren } from "preact";

/** The card of label/value pairs at the top of a detail page. */
export function Facts({ children }: { children: ComponentChildren }) {
  return <dl class="facts card">{children}</dl>;
}

/** One label/value pair of a `Facts` card. */
export function Fact({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
