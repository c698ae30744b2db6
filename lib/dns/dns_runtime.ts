/**
 * What the DNS listener and the NOTIFY sender report about themselves, kept
 * in memory for GET /diagnostics/dns: whether the UDP and TCP loops still
 * run, and the last NOTIFY outcome per secondary. The listener (server/) fills
 * it in; nothing here is stored, so a restart starts it empty.
 */

export interface ListenerHealth {
  address: string;
  udp: boolean;
  tcp: boolean;
}

/** The last NOTIFY round to one secondary. */
export interface NotifyOutcome {
  /** "host:port" of the secondary. */
  target: string;
  zone: string;
  /** The zone's serial the NOTIFY announced; the secondary acknowledged it when `ok`. */
  serial: number | null;
  ok: boolean;
  at: string;
}

export class DnsRuntime {
  /** Set by the DNS listener once it serves; null when it does not run in this process. */
  listener: (() => ListenerHealth) | null = null;
  /** Secondaries from PALISADE_DNS_NOTIFY, "host:port"; set with the notifier. */
  notifyTargets: string[] = [];
  #notify = new Map<string, NotifyOutcome>();

  recordNotify(outcome: NotifyOutcome): void {
    this.#notify.set(outcome.target, outcome);
  }

  /** The last outcome per secondary, in the order the secondaries were configured. */
  notifyOutcomes(): NotifyOutcome[] {
    return this.notifyTargets.flatMap((t) => {
      const o = this.#notify.get(t);
      return o ? [o] : [];
    });
  }
}
