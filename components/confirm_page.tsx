/**
 * Confirmation pages of destructive actions: "Delete X? [Delete X] [Cancel]".
 * GET asks, a POST to the same path acts, so confirming needs no script. A
 * route file describes what it confirms and `confirmRoute` builds its
 * `meta`, `handler` and page.
 */
import type { ComponentChildren } from "preact";
import { page, type PageProps } from "@/server/http/define.ts";
import { define, type SignedInContext } from "@/server/listeners/admin/context.ts";
import { ErrorSummary } from "./error_summary.tsx";
import { Page } from "./page.tsx";
import { pageRefusal } from "./refusal.ts";

/** What the page says about the thing it asks about. */
export interface ConfirmText {
  question: ComponentChildren;
  consequence?: ComponentChildren;
  /** Block content (a list, a table) after the consequence, which is one paragraph. */
  details?: ComponentChildren;
  /** The button, e.g. "Delete wg1". */
  confirmLabel: string;
  /** Where Cancel and Back lead: the thing's own page. */
  cancelHref: string;
}

/** A confirmation route, described. */
export interface ConfirmSpec<T> {
  /** Page title, e.g. "Delete peer". */
  title: string;
  /** Summaries of the question (GET) and the action (POST). */
  summary: { GET: string; POST: string };
  /** The thing asked about; throws NotFoundError when it does not exist. */
  load(ctx: SignedInContext): T | Promise<T>;
  /** Performs the action; returns the page to go to after it (with its `?done=`). */
  act(ctx: SignedInContext, item: T): string | Promise<string>;
  text(item: T): ConfirmText;
  /** Who may ask and act; operators when absent (viewers for what is their own). */
  access?: "viewer" | "operator" | "administrator";
}

interface Data<T> {
  item: T;
  /** The refusal of a confirmed action, shown above its button. */
  error?: string;
}

/** The question and its two answers; the error of a refused action above them. */
export function ConfirmPage(
  { title, question, consequence, details, confirmLabel, cancelHref, error }: ConfirmText & {
    title: string;
    error?: string;
  },
) {
  return (
    <Page title={title} back={{ href: cancelHref, label: "Back" }}>
      <form method="post" class="card stack confirm" aria-labelledby="confirm-question">
        <p id="confirm-question" class="question">{question}</p>
        {consequence && <p class="muted">{consequence}</p>}
        {details}
        <ErrorSummary message={error} />
        <div class="row">
          <button type="submit" class="danger">{confirmLabel}</button>
          <a href={cancelHref} class="button-link">Cancel</a>
        </div>
      </form>
    </Page>
  );
}

/** The `meta`, `handler` and page of a confirmation route (operators, or `spec.access`). */
export function confirmRoute<T>(spec: ConfirmSpec<T>) {
  const access = spec.access ?? "operator";
  const meta = define.meta({
    GET: { summary: spec.summary.GET, access },
    POST: { summary: spec.summary.POST, access },
  });
  const handler = define.handlers(meta, {
    async GET(ctx) {
      ctx.state.title = spec.title;
      return page<Data<T>>({ item: await spec.load(ctx) });
    },
    async POST(ctx) {
      ctx.state.title = spec.title;
      const item = await spec.load(ctx);
      try {
        return ctx.redirect(await spec.act(ctx, item));
      } catch (err) {
        const { error, status } = pageRefusal(err);
        return page<Data<T>>({ item, error }, { status });
      }
    },
  });
  function Confirm({ data }: PageProps<Data<T>>) {
    return <ConfirmPage title={spec.title} {...spec.text(data.item)} error={data.error} />;
  }
  return { meta, handler, Confirm };
}
