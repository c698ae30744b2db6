/**
 * Sends one event to one subscription (docs/webhooks.md, "Deliveries and
 * retries"): signed JSON, POSTed with no redirect followed, the target checked
 * again before each attempt (DNS rebinding), retried on failure after 1, 2,
 * 4 … × PALISADE_WEBHOOK_RETRY_BASE_MS up to PALISADE_WEBHOOK_MAX_ATTEMPTS
 * attempts and within PALISADE_WEBHOOK_RETRY_MAX_TOTAL_MS. Every attempt is
 * logged. Runs outside any transaction; pending retries live in this process
 * only (a restart drops them).
 */
import type { Clock } from "../clock.ts";
import type { WebhookSettings } from "../config/webhook_options.ts";
import { DomainError } from "../errors.ts";
import type { Logger } from "../log/log.ts";
import type { WebhookEvent } from "./event_types.ts";
import { SIGNATURE_HEADER, signatureHeader } from "./signature.ts";
import { checkTarget, parseWebhookUrl, type Resolver, systemResolver } from "./url_guard.ts";
import type { DeliveryRecord, DeliveryStatus, WebhookRecord, WebhookRepo } from "./webhook_repo.ts";

/** What one attempt came to. */
interface Outcome {
  ok: boolean;
  /** No retry can help (the target is refused). */
  final: boolean;
  responseCode: number | null;
  error: string | null;
}

export class WebhookDeliverer {
  #timers = new Set<ReturnType<typeof setTimeout>>();
  #inflight = new Set<AbortController>();
  #stopped = false;

  constructor(
    private readonly repo: WebhookRepo,
    private readonly settings: WebhookSettings,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly resolve: Resolver = systemResolver,
  ) {}

  /** Makes the first attempt now; answers its log row, retries go on in the background. */
  deliver(hook: WebhookRecord, event: WebhookEvent): Promise<DeliveryRecord> {
    return this.#attempt(hook, event, 1, this.clock.now());
  }

  /** Cancels pending retries and attempts under way. */
  stop(): void {
    this.#stopped = true;
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
    for (const c of this.#inflight) c.abort();
  }

  async #attempt(
    hook: WebhookRecord,
    event: WebhookEvent,
    attempt: number,
    firstAt: number,
  ): Promise<DeliveryRecord> {
    const outcome = await this.#send(hook, event);
    const delay = this.settings.retryBaseMs * 2 ** (attempt - 1);
    const retry = !outcome.ok && !outcome.final && !this.#stopped &&
      attempt < this.settings.maxAttempts &&
      this.clock.now() + delay - firstAt <= this.settings.retryMaxTotalMs;
    const status: DeliveryStatus = outcome.ok ? "delivered" : retry ? "retrying" : "failed";
    const row: DeliveryRecord = {
      id: crypto.randomUUID(),
      webhookId: hook.id,
      eventId: event.id,
      eventType: event.type,
      attempt,
      status,
      responseCode: outcome.responseCode,
      error: outcome.error,
      at: this.clock.now(),
    };
    try {
      await this.repo.addDelivery(row, this.settings.logKeep);
    } catch (err) {
      // The subscription was deleted meanwhile: nothing to log it under, nothing to retry.
      this.log.debug("webhook delivery not logged", { webhook: hook.id, err });
      return row;
    }
    if (retry) this.#later(delay, () => this.#attempt(hook, event, attempt + 1, firstAt));
    return row;
  }

  #later(ms: number, fn: () => Promise<unknown>): void {
    const t = setTimeout(() => {
      this.#timers.delete(t);
      fn().catch((err) => this.log.warn("webhook retry failed", { err }));
    }, ms);
    this.#timers.add(t);
  }

  async #send(hook: WebhookRecord, event: WebhookEvent): Promise<Outcome> {
    let url: URL;
    try {
      url = parseWebhookUrl(hook.url);
      await checkTarget(url, this.settings.allowLocal, this.resolve);
    } catch (err) {
      const message = err instanceof DomainError ? err.message : String(err);
      const final = err instanceof DomainError && err.code !== "url_unresolvable";
      return { ok: false, final, responseCode: null, error: message };
    }
    const body = JSON.stringify(event);
    const t = Math.floor(this.clock.now() / 1000);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.settings.timeoutMs);
    this.#inflight.add(controller);
    try {
      const res = await fetch(url, {
        method: "POST",
        // A redirect could lead anywhere, past the checks above: it counts as a failure.
        redirect: "manual",
        signal: controller.signal,
        headers: {
          "Content-Type": "application/json",
          "User-Agent": "Palisade-Webhooks",
          [SIGNATURE_HEADER]: signatureHeader(hook.secret, body, t),
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
        ? `No answer within ${this.settings.timeoutMs} ms`
        : `Request failed: ${err instanceof Error ? err.message : String(err)}`;
      return { ok: false, final: false, responseCode: null, error: error.slice(0, 500) };
    } finally {
      clearTimeout(timer);
      this.#inflight.delete(controller);
    }
  }
}
