/**
 * The timer that moves key rollovers forward (docs/dns.md, "Rollover"):
 * every PALISADE_DNSSEC_ROLLOVER_CHECK_MS it applies the steps that are due
 * (rollover.ts) and starts the automatic rotations that are due. It runs
 * once at start, so what fell due while the server was down is applied at
 * once. Owned by the DNS services: started and stopped with them.
 */
import type { Logger } from "../../log/log.ts";
import { silentLogger } from "../../log/log.ts";
import type { DnsContext } from "../dns_context.ts";
import { advanceRollovers, rotateZsk, rotationDue, SYSTEM_ACTOR } from "./rollover.ts";

export interface RolloverSchedulerOptions {
  /** Milliseconds between passes. */
  checkMs: number;
  log?: Logger;
  /**
   * Whether this instance runs the pass now (several instances on one
   * PostgreSQL database elect one: docs/scaling.md); always when absent.
   */
  elected?: () => Promise<boolean>;
}

export class RolloverScheduler {
  #timer?: ReturnType<typeof setInterval>;
  #running?: Promise<void>;
  readonly #log: Logger;

  constructor(private readonly ctx: DnsContext, private readonly opts: RolloverSchedulerOptions) {
    this.#log = opts.log ?? silentLogger;
  }

  /** Runs a pass now, then one every `checkMs`. */
  start(): void {
    if (this.#timer !== undefined) return;
    void this.tick();
    const timer = setInterval(() => void this.tick(), this.opts.checkMs);
    Deno.unrefTimer(timer);
    this.#timer = timer;
  }

  /** Stops the timer and waits for a pass under way. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  /** One pass; a pass under way is joined, not doubled. Never rejects (failures are logged). */
  tick(): Promise<void> {
    this.#running ??= this.#pass().finally(() => (this.#running = undefined));
    return this.#running;
  }

  async #pass(): Promise<void> {
    if (this.opts.elected && !(await this.opts.elected())) return;
    try {
      await advanceRollovers(this.ctx);
    } catch (err) {
      this.#log.error("DNSSEC rollover step failed", { error: err });
    }
    for (const { zone, days } of await this.ctx.zones.zskRotations()) {
      try {
        if (!rotationDue(await this.ctx.dnssecKeys.list(zone), days, this.ctx.clock.now())) {
          continue;
        }
        const r = await rotateZsk(this.ctx, SYSTEM_ACTOR, zone);
        this.#log.info("DNSSEC ZSK rollover started by automatic rotation", {
          zone,
          old_key_id: r.old_key_id,
          new_key_id: r.new_key_id,
          completion: r.rollover_completion_date,
        });
      } catch (err) {
        this.#log.error("DNSSEC automatic ZSK rotation failed", { zone, error: err });
      }
    }
  }
}
