/**
 * The hidden-field helper, like Turnstile's implicit rendering: a `<form>`
 * that contains an element with class `palisade-attest` (or carries the
 * attribute `data-palisade-attest` itself) gets a hidden input
 * `palisade-response` holding a fresh token when it is submitted. The
 * helper stops the submission, awaits `token()` (with the marker's
 * `data-action` and `data-cdata`), fills the field and submits again with
 * the same submit button. When no token can be had (too few heartbeats yet,
 * network failure) the form is submitted with the field empty, so a visitor
 * is never stuck: the site's server then gets `missing-input-response` from
 * siteverify and decides (docs/attestation_sites.md). The failure is also
 * dispatched on the form as `palisade-attest:token-error`.
 */
import type { TokenOptions } from "./token.ts";

export const RESPONSE_FIELD = "palisade-response";
export const MARKER = ".palisade-attest, [data-palisade-attest]";
export const TOKEN_ERROR_EVENT = "palisade-attest:token-error";

function responseField(form: HTMLFormElement): HTMLInputElement {
  const existing = form.querySelector<HTMLInputElement>(`input[name="${RESPONSE_FIELD}"]`);
  if (existing) return existing;
  const input = form.ownerDocument.createElement("input");
  input.type = "hidden";
  input.name = RESPONSE_FIELD;
  form.append(input);
  return input;
}

function markerOf(form: HTMLFormElement): HTMLElement | null {
  return form.matches("[data-palisade-attest]") ? form : form.querySelector<HTMLElement>(MARKER);
}

/** Installs the helper on `doc`; returns a function that removes it. */
export function installFormHelper(
  doc: Document,
  token: (options: TokenOptions) => Promise<string>,
): () => void {
  const passing = new WeakSet<HTMLFormElement>();
  const pending = new WeakSet<HTMLFormElement>();
  const onSubmit = (ev: Event) => {
    const form = ev.target;
    // A page that handles the submission itself (preventDefault) is left alone.
    if (!(form instanceof HTMLFormElement) || ev.defaultPrevented) return;
    if (passing.has(form)) {
      passing.delete(form);
      return;
    }
    const marker = markerOf(form);
    if (!marker) return;
    ev.preventDefault();
    if (pending.has(form)) return;
    pending.add(form);
    const submitter = (ev as SubmitEvent).submitter;
    const options: TokenOptions = {};
    if (marker.dataset.action) options.action = marker.dataset.action;
    if (marker.dataset.cdata) options.cdata = marker.dataset.cdata;
    void token(options).catch((err) => {
      form.dispatchEvent(new CustomEvent(TOKEN_ERROR_EVENT, { detail: err }));
      return "";
    }).then((value) => {
      pending.delete(form);
      responseField(form).value = value;
      passing.add(form);
      form.requestSubmit(submitter && submitter.closest("form") === form ? submitter : undefined);
    });
  };
  // Bubbling, so that the page's own handlers on the form run first.
  doc.addEventListener("submit", onSubmit);
  return () => doc.removeEventListener("submit", onSubmit);
}
