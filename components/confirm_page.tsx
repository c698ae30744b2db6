import type { ComponentChildren } from "preact";
import { PageHeader } from "./page_header.tsx";

/**
 * "Delete X? [Delete] [Cancel]" for destructive actions: GET shows it and a
 * POST to the same path performs the action, so confirming needs no script.
 */
export function ConfirmPage(
  { title, question, consequence, confirmLabel, cancelHref, error }: {
    title: string;
    question: ComponentChildren;
    consequence?: ComponentChildren;
    confirmLabel: string;
    cancelHref: string;
    error?: string;
  },
) {
  return (
    <>
      <PageHeader title={title} back={{ href: cancelHref, label: "Back" }} />
      <form method="post" class="card stack confirm" aria-labelledby="confirm-question">
        <p id="confirm-question" class="question">{question}</p>
        {consequence && <p class="muted">{consequence}</p>}
        {error && <p class="form-error" role="alert">{error}</p>}
        <div class="row">
          <button type="submit" class="danger">{confirmLabel}</button>
          <a href={cancelHref} class="button-link">Cancel</a>
        </div>
      </form>
    </>
  );
}
