/**
 * Sends one event to one subscription (docs/webhooks.md, "Deliveries and
 * retries"): signed JSON, POSTed with no redirect followed, the target checked
 * again before each attempt (DNS rebinding), retried on failure after 1, 2,
 * 4 … × PALISADE_WEBHOOK_RETRY_BASE_MS up to PALISADE_WEBHOOK_MAX_ATTEMPTS
 * attempts and within PALISADE_WEBHOOK_RETRY_MAX_TOTAL_MS. Every attempt is
 * logged. Runs outside any transaction except the one recording an attempt.
 *
 * A pending retry is a row of `webhook_retries`, written with the attempt's
 * log row, so a restart does not lose it: this process times the retries it
 * schedules, and a poll picks up the ones it does not know (left by a
 * stopped process or another instance). Each attempt is claimed with a
 * conditional update (a lease) before it is sent, so two timers or two instances never
 * send the same attempt.
 *
 * A disabled or deleted subscription gets no retry: disabling it removes its
 * stored retries (logged "not retried"), in the transaction that disables
 * it, so enabling it again does not resume them; an attempt under way at
 * that moment reads the subscription again where it records its outcome.
 */
import type { Clock } from "../clock.ts";
import type { WebhookSettings } from "../config/webhook_options.ts";
import type { Logger } from "../log/log.ts";
import type { AsyncTransactor } from "../store/async_transactor.ts";
import type { WebhookEvent } from "./event_types.ts";
import { type Resolver, systemResolver } from "./url_guard.ts";
import { type Outcome, sendAttempt } from "./send.ts";
import type { DeliveryRecord, DeliveryStatus, WebhookRecord, WebhookRepo } from "./webhook_repo.ts";
import type { PendingRetry, WebhookRetryRepo } from "./webhook_retry_repo.ts";

/** Retries looked at per poll; the rest wait for the next one. */
const POLL_BATCH = 100;
/** A timer may fire this late; a retry is still within its bound then. */
const TIMER_SLACK_MS = 1000;
/** Why a disabled subscription's delivery stops (docs/webhooks.md). */
const NOT_RETRIED = "not retried: the subscription is disabled";

export interface DelivererParts {
  repo: WebhookRepo;
  retries: WebhookRetryRepo;
  transactor: AsyncTransactor;
  settings: WebhookSettings;
  clock: Clock;
  log: Logger;
  resolve?: Resolver;
}

export class WebhookDeliverer {
  #timers = new Map<string, ReturnType<typeof setTimeout>>();
  #inflight = new Set<AbortController>();
  #poll: ReturnType<typeof setInterval> | undefined;
  #stopped = false;

  constructor(private readonly p: DelivererParts) {}

  /** How often the store is asked for retries this process does not time itself. */
  get pollMs(): number {
    return Math.min(30_000, Math.max(1000, this.p.settings.retryBaseMs));
  }

  /** Makes the first attempt now; answers its log row, retries go on in the background. */
  deliver(hook: WebhookRecord, event: WebhookEvent): Promise<DeliveryRecord> {
    const now = this.p.clock.now();
    const first: PendingRetry = {
      id: crypto.randomUUID(),
      webhookId: hook.id,
      eventId: event.id,
      eventType: event.type,
      body: JSON.stringify(event),
      attempt: 1,
      firstAt: now,
      dueAt: now,
    };
    return this.#attempt(hook, first, false);
  }

  /** Starts polling for stored retries (the first poll now, for those a restart left). */
  start(): void {
    const poll = () => this.poll().catch((err) => this.p.log.warn("webhook poll failed", { err }));
    this.#poll = setInterval(poll, this.pollMs);
    Deno.unrefTimer(this.#poll);
    poll();
  }

  /** Times every stored retry due before the next poll that this process does not time yet. */
  async poll(): Promise<void> {
    if (this.#stopped) return;
    const now = this.p.clock.now();
    for (const r of await this.p.retries.due(now + this.pollMs, now, POLL_BATCH)) {
      if (!this.#timers.has(r.id)) this.#schedule(r);
    }
  }

  /** Cancels timers and attempts under way; stored retries stay for the next start. */
  stop(): void {
    this.#stopped = true;
    if (this.#poll !== undefined) clearInterval(this.#poll);
    for (const t of this.#timers.values()) clearTimeout(t);
    this.#timers.clear();
    for (const c of this.#inflight) c.abort();
  }

  #schedule(r: PendingRetry): void {
    if (this.#stopped) return;
    const t = setTimeout(() => {
      this.#timers.delete(r.id);
      this.#retry(r).catch((err) => this.p.log.warn("webhook retry failed", { err }));
    }, Math.max(0, r.dueAt - this.p.clock.now()));
    this.#timers.set(r.id, t);
  }

  /** Claims and makes a stored attempt, or ends it when its bound passed meanwhile. */
  async #retry(r: PendingRetry): Promise<void> {
    if (this.#stopped) return;
    const { settings, clock, retries } = this.p;
    const now = clock.now();
    const lease = now + settings.timeoutMs + 30_000;
    if (!(await retries.claim(r.id, r.attempt, now, lease))) return;
    const hook = await this.p.repo.byId(r.webhookId);
    if (!hook) return await retries.remove(r.id);
    if (!hook.enabled) {
      // Disabled after this retry was read (disabling removes stored retries).
      await this.#record(this.#row(r, "failed", disabledOutcome(null)), () => retries.remove(r.id));
      return;
    }
    if (
      r.attempt > settings.maxAttempts ||
      now - r.firstAt > settings.retryMaxTotalMs + TIMER_SLACK_MS
    ) {
      // Palisade was stopped past the retry's time, or the bounds were lowered meanwhile.
      const error = `Not retried: attempt ${r.attempt} was due ${
        Math.round((now - r.dueAt) / 1000)
      } s ago, past the retry bound`;
      await this.#record(
        this.#row(r, "failed", { ok: false, final: true, responseCode: null, error }),
        () => retries.remove(r.id),
      );
      return;
    }
    await this.#attempt(hook, r, true);
  }

  async #attempt(hook: WebhookRecord, r: PendingRetry, stored: boolean): Promise<DeliveryRecord> {
    const { settings, clock, retries } = this.p;
    const controller = new AbortController();
    this.#inflight.add(controller);
    let outcome: Outcome;
    try {
      outcome = await sendAttempt(
        hook,
        r.body,
        controller,
        settings,
        clock,
        this.p.resolve ?? systemResolver,
      );
    } finally {
      this.#inflight.delete(controller);
    }
    const delay = settings.retryBaseMs * 2 ** (r.attempt - 1);
    const dueAt = clock.now() + delay;
    let retry = !outcome.ok && !outcome.final && r.attempt < settings.maxAttempts &&
      dueAt - r.firstAt <= settings.retryMaxTotalMs;
    const next = { ...r, attempt: r.attempt + 1, dueAt };
    let row!: DeliveryRecord;
    const kept = await this.#record(async () => {
      // Read inside the transaction: a subscription disabled meanwhile gets no retry.
      if (retry && !(await this.p.repo.byId(hook.id))?.enabled) {
        retry = false;
        outcome = disabledOutcome(outcome);
      }
      row = this.#row(r, outcome.ok ? "delivered" : retry ? "retrying" : "failed", outcome);
      return row;
    }, async () => {
      if (retry && stored) await retries.reschedule(r.id, next.attempt, dueAt);
      else if (retry) await retries.add(next);
      else if (stored) await retries.remove(r.id);
    });
    if (kept && retry) this.#schedule(next);
    return row ?? this.#row(r, outcome.ok ? "delivered" : "failed", outcome);
  }

  /**
   * Removes the subscription's stored retries, logging each as not retried;
   * repository calls only, run inside the caller's transaction that disables
   * the subscription.
   */
  async dropRetries(webhookId: string): Promise<void> {
    for (const r of await this.p.retries.removeForWebhook(webhookId)) {
      await this.p.repo.addDelivery(
        this.#row(r, "failed", disabledOutcome(null)),
        this.p.settings.logKeep,
      );
    }
  }

  #row(r: PendingRetry, status: DeliveryStatus, outcome: Outcome): DeliveryRecord {
    return {
      id: crypto.randomUUID(),
      webhookId: r.webhookId,
      eventId: r.eventId,
      eventType: r.eventType,
      attempt: r.attempt,
      status,
      responseCode: outcome.responseCode,
      error: outcome.error,
      at: this.p.clock.now(),
    };
  }

  /** Logs the attempt and changes the stored retry in one transaction; false when that failed. */
  async #record(
    row: DeliveryRecord | (() => Promise<DeliveryRecord>),
    retryChange: () => Promise<void>,
  ): Promise<boolean> {
    try {
      await this.p.transactor.tx(async () => {
        const logged = typeof row === "function" ? await row() : row;
        await this.p.repo.addDelivery(logged, this.p.settings.logKeep);
        await retryChange();
      });
      return true;
    } catch (err) {
      // The subscription was deleted meanwhile (its retries went with it), or the store closed.
      this.p.log.debug("webhook delivery not logged", { err });
      return false;
    }
  }
}

/** The outcome logged when a failed attempt is not retried because the subscription is disabled. */
function disabledOutcome(failed: Outcome | null): Outcome {
  return {
    ok: false,
    final: true,
    responseCode: failed?.responseCode ?? null,
    error: failed?.error
      ? `${failed.error}; ${NOT_RETRIED}`
      : NOT_RETRIED[0].toUpperCase() + NOT_RETRIED.slice(1),
  };
}
