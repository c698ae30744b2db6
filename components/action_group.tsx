import type { ComponentChildren } from "preact";
import { ErrorSummary } from "./error_summary.tsx";

/** The buttons of a detail page's one-click actions, with the refusal of the last one after them. */
export function ActionGroup(
  { label, labelledBy, error, children }: {
    label?: string;
    labelledBy?: string;
    error?: string | null;
    children: ComponentChildren;
  },
) {
  return (
    <div class="actions" aria-label={label} role="group" aria-labelledby={labelledBy}>
      {children}
      <ErrorSummary message={error} />
    </div>
  );
}
