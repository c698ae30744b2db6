/**
 * Pointer samples {x, y, t} for heartbeats. Mouse and pen arrive as
 * `pointermove`; touch is taken from `touchmove`, because a touch pointer is
 * cancelled (`pointercancel`) as soon as the browser starts scrolling, while
 * `touchmove` keeps reporting the finger during the scroll. So a touch user
 * produces a path by dragging or scrolling; a tap alone moves nothing and adds
 * no sample (docs/attestation.md, "Embedding").
 *
 * x and y are viewport coordinates (clientX/clientY) rounded to 0.1 px, and t
 * is milliseconds since the sampling window opened (attach()), rounded to
 * 0.1 ms: finer values carry no signal and only grow the request. The buffer
 * keeps the newest `capacity` samples; take() hands over everything since the
 * previous take, so each heartbeat carries the samples since the one before.
 */
import type { EntropyEvent } from "../lib/attest/canonical.ts";

/** Samples kept between two heartbeats; older ones are dropped first. */
export const SAMPLE_CAPACITY = 256;

const round1 = (v: number) => Math.round(v * 10) / 10;

export class PointerSampler {
  #samples: EntropyEvent[] = [];
  #origin = 0;
  #target: EventTarget | null = null;

  constructor(
    private readonly clock: () => number = () => performance.now(),
    readonly capacity = SAMPLE_CAPACITY,
  ) {}

  /** Opens a new sampling window and listens for pointer movement on `target`. */
  attach(target: EventTarget = globalThis): void {
    this.detach();
    this.#origin = this.clock();
    this.#target = target;
    // Passive: sampling must never delay scrolling or input handling.
    target.addEventListener("pointermove", this.#onPointer, { passive: true, capture: true });
    target.addEventListener("touchmove", this.#onTouch, { passive: true, capture: true });
  }

  /** Stops listening and drops every sample. */
  detach(): void {
    this.#target?.removeEventListener("pointermove", this.#onPointer, { capture: true });
    this.#target?.removeEventListener("touchmove", this.#onTouch, { capture: true });
    this.#target = null;
    this.#samples = [];
  }

  /** Records a sample at viewport coordinates, now. */
  record(x: number, y: number): void {
    if (!Number.isFinite(x) || !Number.isFinite(y)) return;
    const sample = { x: round1(x), y: round1(y), t: round1(this.clock() - this.#origin) };
    const last = this.#samples[this.#samples.length - 1];
    // A report without movement (pen pressure, a held finger) is not part of the path.
    if (last && last.x === sample.x && last.y === sample.y) return;
    this.#samples.push(sample);
    if (this.#samples.length > this.capacity) this.#samples.shift();
  }

  /** The samples since the previous take(), oldest first; the buffer is then empty. */
  take(): EntropyEvent[] {
    const out = this.#samples;
    this.#samples = [];
    return out;
  }

  /** Puts back samples of a heartbeat that never reached the server, ahead of newer ones. */
  giveBack(events: EntropyEvent[]): void {
    this.#samples = events.concat(this.#samples).slice(-this.capacity);
  }

  /** Number of samples waiting for the next heartbeat. */
  get size(): number {
    return this.#samples.length;
  }

  #onPointer = (e: Event): void => {
    const p = e as PointerEvent;
    // Touch pointers stop at the first scroll; touchmove covers touch instead.
    if (p.pointerType === "touch") return;
    this.record(p.clientX, p.clientY);
  };

  #onTouch = (e: Event): void => {
    const touch = (e as TouchEvent).touches?.[0];
    if (touch) this.record(touch.clientX, touch.clientY);
  };
}
