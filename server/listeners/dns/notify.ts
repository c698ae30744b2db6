/**
 * Sends NOTIFY to the configured secondaries after each committed zone
 * change, so they check the serial and transfer at once instead of waiting
 * for the SOA refresh. Retries a few times (RFC 1996 §3.6); changes that
 * arrive while a round for the same zone runs are folded into one more round.
 */
import type { EventBus } from "../../../lib/events/bus.ts";
import type { Logger } from "../../../lib/log/log.ts";
import { silentLogger } from "../../../lib/log/log.ts";
import { isNotifyReply, notifyMessage, type NotifyTarget } from "../../../lib/dns/notify.ts";
import {
  materialOf,
  signRequest,
  type TsigKeyring,
  verifyResponse,
} from "../../../lib/dns/tsig/sign.ts";

export interface NotifierOptions {
  targets: NotifyTarget[];
  /** Where the keys of targets with a key are found (the TSIG key repository). */
  keys?: TsigKeyring;
  /** Sends per target before giving up. */
  attempts?: number;
  /** Wait for the reply to each send. */
  timeoutMs?: number;
  logger?: Logger;
  /** Told the outcome of each round to each target (GET /diagnostics/dns keeps the last). */
  onResult?: (
    r: { target: NotifyTarget; zone: string; serial: number | null; ok: boolean },
  ) => void;
}

export class DnsNotifier {
  #running = new Map<string, boolean>();
  /** The latest serial announced per zone: a round repeated for a newer change sends the newer. */
  #serials = new Map<string, number | null>();
  #rounds = new Set<Promise<void>>();
  #unsubscribe?: () => void;

  constructor(private readonly options: NotifierOptions) {}

  /** Subscribes to ZoneChanged; returns the function that stops it. */
  start(bus: EventBus): () => void {
    this.#unsubscribe = bus.subscribe((e, origin) => {
      // A change relayed from another instance was announced to the secondaries by that
      // instance: each change is notified once per cluster, not once per instance.
      if (origin !== undefined) return;
      if (e.type === "ZoneChanged" && e.payload.action !== "deleted") {
        this.notify(e.payload.zone, e.payload.serial);
      }
    });
    return () => this.stop();
  }

  /** Stops listening and waits for rounds under way. */
  async stop(): Promise<void> {
    this.#unsubscribe?.();
    await Promise.allSettled([...this.#rounds]);
  }

  /** Notifies every target about `zone` (at `serial`, when known). */
  notify(zone: string, serial: number | null = null): void {
    if (this.options.targets.length === 0) return;
    this.#serials.set(zone, serial);
    if (this.#running.has(zone)) {
      this.#running.set(zone, true);
      return;
    }
    this.#running.set(zone, false);
    const round = (async () => {
      do {
        this.#running.set(zone, false);
        await Promise.allSettled(this.options.targets.map(async (target) => {
          const sent = this.#serials.get(zone) ?? null;
          const ok = await this.send(zone, target).catch(() => false);
          this.options.onResult?.({ target, zone, serial: sent, ok });
        }));
      } while (this.#running.get(zone));
      this.#running.delete(zone);
    })();
    this.#rounds.add(round);
    round.finally(() => this.#rounds.delete(round));
  }

  private async send(zone: string, target: NotifyTarget): Promise<boolean> {
    const log = this.options.logger ?? silentLogger;
    const attempts = this.options.attempts ?? 5;
    const timeoutMs = this.options.timeoutMs ?? 1000;
    const id = crypto.getRandomValues(new Uint16Array(1))[0];
    const signed = signNotify(notifyMessage(id, zone), target, this.options.keys);
    if (!signed) {
      log.warn("NOTIFY key not found", { zone, key: target.key });
      return false;
    }
    const { msg, accepts } = signed;
    const v6 = target.hostname.includes(":");
    const sock = Deno.listenDatagram({
      hostname: v6 ? "::" : "0.0.0.0",
      port: 0,
      transport: "udp",
    });
    const addr: Deno.NetAddr = { transport: "udp", hostname: target.hostname, port: target.port };
    // One receive stays pending across attempts: a datagram socket takes one reader at a time.
    const next = () => sock.receive().then(([d]) => d, () => null);
    let pending = next();
    try {
      for (let i = 0; i < attempts; i++) {
        await sock.send(msg, addr);
        const deadline = Date.now() + timeoutMs;
        while (Date.now() < deadline) {
          const got = await within(pending, deadline - Date.now());
          if (got === "timeout") break;
          if (got && isNotifyReply(got, id) && accepts(got)) return true;
          pending = next();
        }
      }
      log.warn("NOTIFY got no answer", { zone, target: `${target.hostname}:${target.port}` });
      return false;
    } finally {
      sock.close();
    }
  }
}

/**
 * The NOTIFY to send and the test of its reply: signed with the target's
 * TSIG key when it names one (the reply must then carry a valid signature
 * over ours), as is otherwise; null when the key does not exist.
 */
function signNotify(
  msg: Uint8Array,
  target: NotifyTarget,
  keys: TsigKeyring | undefined,
): { msg: Uint8Array; accepts: (reply: Uint8Array) => boolean } | null {
  if (!target.key) return { msg, accepts: () => true };
  const stored = keys?.withSecret(target.key);
  if (!stored) return null;
  const material = materialOf(stored);
  const { bytes, mac } = signRequest(msg, material, Date.now() / 1000);
  return { msg: bytes, accepts: (r) => verifyResponse(r, material, mac, Date.now() / 1000) };
}

async function within<T>(p: Promise<T>, ms: number): Promise<T | "timeout"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) =>
    timer = setTimeout(() => resolve("timeout"), Math.max(1, ms))
  );
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
