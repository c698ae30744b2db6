/**
 * One HTTP attempt of a delivery (docs/webhooks.md): the target checked
 * again (DNS rebinding) and, over plain http, connected to at the address
 * checked, the body POSTed with no redirect followed, signed
 * with the subscription's secret and, during a rotation's grace, the
 * previous one too.
 */
import { isIP } from "node:net";
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
  let addresses: string[];
  try {
    url = parseWebhookUrl(hook.url);
    addresses = await checkTarget(url, settings.allowLocal, resolve);
  } catch (err) {
    const message = err instanceof DomainError ? err.message : String(err);
    const final = err instanceof DomainError && err.code !== "url_unresolvable";
    return { ok: false, final, responseCode: null, error: message };
  }
  const now = clock.now();
  const t = Math.floor(now / 1000);
  const timer = setTimeout(() => controller.abort(), settings.timeoutMs);
  const target = pinned(url, addresses);
  try {
    const res = await fetch(target.url, {
      client: target.client,
      method: "POST",
      // A redirect could lead anywhere, past the checks above: it counts as a failure.
      redirect: "manual",
      signal: controller.signal,
      headers: {
        ...target.headers,
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
    target.client?.close();
  }
}

/**
 * Where a plain-http attempt connects: the first address the guard checked,
 * with the name in the Host header. Left to fetch, the name would be looked
 * up a second time, and a DNS answer changed between the two lookups
 * (rebinding) would reach an address never checked. https keeps the name:
 * its certificate must match the name, which a rebound local service cannot
 * present, and pinning would break that verification.
 */
function pinned(url: URL, addresses: string[]): {
  url: URL;
  client?: Deno.HttpClient;
  headers?: Record<string, string>;
} {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (url.protocol !== "http:" || isIP(host) || addresses.length === 0) return { url };
  const direct = new URL(url);
  direct.hostname = isIP(addresses[0]) === 6 ? `[${addresses[0]}]` : addresses[0];
  return {
    url: direct,
    client: Deno.createHttpClient({ allowHost: true }),
    headers: { Host: url.host },
  };
}
