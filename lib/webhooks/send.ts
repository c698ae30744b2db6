/**
 * One HTTP attempt of a delivery (docs/webhooks.md): the target checked
 * again (DNS rebinding), the body POSTed with no redirect followed, signed
 * with the subscription's secret and, during a rotation's grace, the
 * previous one too.
 */
import type { Clock } from "../clock.ts";
import type { WebhookSettings } from "../config/webhook_options.ts";
import { DomainError } from "../errors.ts";
import { SIGNATURE_HEADER, signatureHeader } from "./signature.ts";
import { checkTarget, parseWebhookUrl, type Resolver } from "./url_guard.ts";
import type { WebhookRecord } from "./webhook_repo.ts";

/** What one attempt came to. */
export interface Outcome {
  ok: boolean;
  /** No retry can help (the target is refused). */
  final: boolean;
  responseCode: number | null;
  error: string | null;
}

/** The secrets a delivery at `now` is signed with: the current one first. */
export function signingSecrets(hook: WebhookRecord, now: number): string[] {
  const previous = hook.previousSecret !== null && hook.previousSecretUntil !== null &&
    now < hook.previousSecretUntil;
  return previous ? [hook.secret, hook.previousSecret!] : [hook.secret];
}

export async function sendAttempt(
  hook: WebhookRecord,
  body: string,
  controller: AbortController,
  settings: WebhookSettings,
  clock: Clock,
  resolve: Resolver,
): Promise<Outcome> {
  let url: URL;
  try {
    url = parseWebhookUrl(hook.url);
    await checkTarget(url, settings.allowLocal, resolve);
  } catch (err) {
    const message = err instanceof DomainError ? err.message : String(err);
    const final = err instanceof DomainError && err.code !== "url_unresolvable";
    return { ok: false, final, responseCode: null, error: message };
  }
  const now = clock.now();
  const t = Math.floor(now / 1000);
  const timer = setTimeout(() => controller.abort(), settings.timeoutMs);
  try {
    const res = await fetch(url, {
      method: "POST",
      // A redirect could lead anywhere, past the checks above: it counts as a failure.
      redirect: "manual",
      signal: controller.signal,
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "Palisade-Webhooks",
        [SIGNATURE_HEADER]: signatureHeader(signingSecrets(hook, now), body, t),
      },
      body,
    });
    await res.body?.cancel();
    const ok = res.status >= 200 && res.status < 300;
    return {
      ok,
      final: false,
      responseCode: res.status,
      error: ok ? null : `Receiver answered ${res.status}`,
    };
  } catch (err) {
    const error = controller.signal.aborted
      ? `No answer within ${settings.timeoutMs} ms`
      : `Request failed: ${err instanceof Error ? err.message : String(err)}`;
    return { ok: false, final: false, responseCode: null, error: error.slice(0, 500) };
  } finally {
    clearTimeout(timer);
  }
}
