/**
 * Events between instances over PostgreSQL LISTEN/NOTIFY (issue 27,
 * docs/scaling.md decision 7 and "Cross-instance infrastructure"). Every
 * event this process emits on its bus, of a type that is relayed
 * (relay_frames.ts), is also sent on the `palisade_events` channel; every
 * frame from another instance is emitted on the local bus with its origin,
 * so WebSocket subscribers and dashboards on one instance see the changes
 * made on another. An instance ignores its own frames, and never sends
 * again what it received (that would loop between instances).
 *
 * Events are emitted after their transaction committed, so a frame goes
 * out after the commit too: only changes that landed are announced. Frames
 * leave in emit order through one queue; a receiver emits them in arrival
 * order, which is each sender's order (PostgreSQL delivers a session's
 * notifications in commit order).
 */
import type { BusEvent, EventBus, EventMap, EventType } from "./bus.ts";
import type { Logger } from "../log/log.ts";
import { silentLogger } from "../log/log.ts";
import type { PgStore } from "../store/pg/pg_store.ts";
import { MAX_NOTIFY_BYTES, type NotifyChannel, pgChannel } from "../store/pg/pg_channel.ts";
import {
  decodeFrame,
  encodeFrame,
  type Frame,
  isRelayed,
  RELAY_RULES,
  type Resolvers,
} from "./relay_frames.ts";

export const EVENT_CHANNEL = "palisade_events";

/** Frames waiting while the database is unreachable; older ones are dropped beyond it. */
const OUTBOX_LIMIT = 10_000;
/** Senders whose last sequence number is remembered (a restart is a new sender). */
const SENDERS_KEPT = 1_000;

export interface EventRelayOptions {
  log?: Logger;
  /** Full payloads of events that arrived cut (relay_frames.ts `Resolvers`). */
  resolvers?: Resolvers;
  /**
   * Called when frames from another instance may have been missed (a gap in
   * its sequence, or the listening connection came back): whoever keeps a
   * copy of shared state reloads it.
   */
  onMissed?: () => void;
  /** This instance's id in the frames (default: a random UUID). */
  instanceId?: string;
  /** The frame limit in bytes (tests only). */
  maxBytes?: number;
}

export interface RelayStats {
  instance: string;
  sent: number;
  received: number;
  /** Frames sent or received cut to fit. */
  cut: number;
  /** Events not sent: they could not fit, the outbox overflowed, or the send failed. */
  dropped: number;
  /** Times frames from another instance may have been missed. */
  missed: number;
}

export interface EventRelay {
  stats(): RelayStats;
  /** Stops relaying, after sending what is queued. */
  stop(): Promise<void>;
}

/**
 * The composition root's one call on PostgreSQL: relays `bus` to and from
 * the other instances sharing `store` until `stop()`.
 */
export function startEventRelay(
  bus: EventBus,
  store: PgStore,
  opts: EventRelayOptions = {},
): Promise<EventRelay> {
  return relayOver(bus, pgChannel(store, EVENT_CHANNEL), opts);
}

/** `startEventRelay` over any channel. */
export async function relayOver(
  bus: EventBus,
  channel: NotifyChannel,
  opts: EventRelayOptions = {},
): Promise<EventRelay> {
  const relay = new Relay(bus, channel, opts);
  await relay.start();
  return relay;
}

class Relay implements EventRelay {
  readonly #id: string;
  readonly #log: Logger;
  readonly #maxBytes: number;
  #seq = 0;
  #outbox: string[] = [];
  #sending: Promise<void> | null = null;
  #inbound = Promise.resolve();
  #lastSeq = new Map<string, number>();
  #listens = 0;
  #unsubscribe: () => void = () => {};
  #unlisten: () => Promise<void> = () => Promise.resolve();
  #stats = { sent: 0, received: 0, cut: 0, dropped: 0, missed: 0 };

  constructor(
    private readonly bus: EventBus,
    private readonly channel: NotifyChannel,
    private readonly opts: EventRelayOptions,
  ) {
    this.#id = opts.instanceId ?? crypto.randomUUID();
    this.#log = opts.log ?? silentLogger;
    this.#maxBytes = opts.maxBytes ?? MAX_NOTIFY_BYTES;
  }

  async start(): Promise<void> {
    this.#unlisten = await this.channel.listen((raw) => this.#receive(raw), () => {
      // Every listen after the first follows a lost connection.
      if (++this.#listens > 1) this.#missed("the listening connection came back");
    });
    this.#unsubscribe = this.bus.subscribe((event, origin) => this.#local(event, origin));
  }

  stats(): RelayStats {
    return { instance: this.#id, ...this.#stats };
  }

  async stop(): Promise<void> {
    this.#unsubscribe();
    await this.#sending;
    await this.#unlisten();
    await this.#inbound;
  }

  #local(event: BusEvent, origin: string | undefined): void {
    // An event another instance sent is that instance's to relay.
    if (origin !== undefined || !RELAY_RULES[event.type].relay) return;
    const frame = encodeFrame(event, this.#id, ++this.#seq, this.#maxBytes);
    if (frame === null) {
      this.#stats.dropped++;
      this.#log.warn("An event too large to relay was not sent", { type: event.type });
      return;
    }
    if (frame.cut) this.#stats.cut++;
    this.#outbox.push(frame.text);
    if (this.#outbox.length > OUTBOX_LIMIT) {
      this.#outbox.shift();
      this.#stats.dropped++;
    }
    this.#sending ??= this.#pump().finally(() => (this.#sending = null));
  }

  /** Sends the queue in order, a batch per round trip, until it is empty. */
  async #pump(): Promise<void> {
    while (this.#outbox.length) {
      const batch = this.#outbox.splice(0, this.#outbox.length);
      try {
        await this.channel.send(batch);
        this.#stats.sent += batch.length;
      } catch (err) {
        this.#stats.dropped += batch.length;
        this.#log.warn("Relaying events to the other instances failed", {
          events: batch.length,
          error: err,
        });
      }
    }
  }

  #receive(raw: string): void {
    const frame = decodeFrame(raw);
    if (!frame || frame.i === this.#id) return;
    const last = this.#lastSeq.get(frame.i);
    if (last !== undefined && frame.n !== last + 1) this.#missed("a gap in an instance's frames");
    this.#remember(frame.i, frame.n);
    // A type this version does not relay (or know) is not emitted.
    if (!isRelayed(frame.t)) return;
    this.#stats.received++;
    this.#inbound = this.#inbound.then(() => this.#deliver(frame)).catch((err) =>
      this.#log.warn("A relayed event could not be delivered", { type: frame.t, error: err })
    );
  }

  async #deliver(frame: Frame): Promise<void> {
    let payload = frame.p as EventMap[EventType];
    if (frame.c === 1) {
      this.#stats.cut++;
      const resolve = this.opts.resolvers?.[frame.t] as
        | ((p: EventMap[EventType]) => Promise<EventMap[EventType] | null>)
        | undefined;
      if (resolve) payload = (await resolve(payload)) ?? payload;
    }
    this.bus.emit(frame.t, payload, frame.i);
  }

  #remember(sender: string, seq: number): void {
    this.#lastSeq.delete(sender);
    this.#lastSeq.set(sender, seq);
    if (this.#lastSeq.size > SENDERS_KEPT) {
      this.#lastSeq.delete(this.#lastSeq.keys().next().value!);
    }
  }

  #missed(why: string): void {
    this.#stats.missed++;
    this.#log.info("Events from other instances may have been missed", { why });
    try {
      this.opts.onMissed?.();
    } catch (err) {
      this.#log.warn("Reloading after missed events failed", { error: err });
    }
  }
}
