import type { ComponentChildren } from "preact";

/** Page title with an optional way back and actions on the right. */
export function PageHeader(
  { title, back, children }: {
    title: ComponentChildren;
    back?: { href: string; label: string };
    children?: ComponentChildren;
  },
) {
  return (
    <div class="page-header">
      <div>
        {back && (
          <p class="crumb">
            <a href={back.href}>← {back.label}</a>
          </p>
        )}
        <h1>{title}</h1>
      </div>
      {children && <div class="row">{children}</div>}
    </div>
  );
}
