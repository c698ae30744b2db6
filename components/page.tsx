import type { ComponentChildren } from "preact";
import { ErrorSummary } from "./error_summary.tsx";
import { Notice } from "./notice.tsx";
import { PageHeader } from "./page_header.tsx";

/**
 * The frame of every dashboard page: its header (title, way back, actions),
 * the notice of the last action (from `?done=…`), a refusal that belongs to
 * the whole page, then the page's sections.
 */
export function Page(
  { title, back, actions, header, notice, error, children }: {
    title?: ComponentChildren;
    back?: { href: string; label: string };
    /** Links and buttons on the right of the header. */
    actions?: ComponentChildren;
    /** A header of its own instead of the title bar (the overview, audit and settings pages). */
    header?: ComponentChildren;
    notice?: string | null;
    error?: string | null;
    children?: ComponentChildren;
  },
) {
  return (
    <>
      {header ?? <PageHeader title={title} back={back}>{actions}</PageHeader>}
      <Notice message={notice} />
      <ErrorSummary message={error} />
      {children}
    </>
  );
}
