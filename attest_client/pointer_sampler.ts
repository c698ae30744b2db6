/**
 * Pointer and focus samples {x, y, t} for heartbeats. Mouse and pen arrive as
 * `pointermove`; touch is taken from `touchmove`, because a touch pointer is
 * cancelled (`pointercancel`) as soon as the browser starts scrolling, while
 * `touchmove` keeps reporting the finger during the scroll. So a touch user
 * produces a path by dragging or scrolling; a tap alone moves nothing and adds
 * no sample (docs/attestation.md, "Pointer and focus samples").
 *
 * Keyboard and screen-reader users move focus instead of a pointer: each
 * `focusin` adds a sample at the centre of the focused element's visible part,
 * into the same time-ordered stream. A focus change within PRESS_FOCUS_MS of a
 * pointer press was made by that press and adds nothing: the pointer's own
 * samples already describe it, and a jump from the pointer to the element's
 * centre would only add distance to a pointer user's path.
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

/** A focus change this soon (ms) after a pointer press was caused by the press. */
export const PRESS_FOCUS_MS = 1000;

const round1 = (v: number) => Math.round(v * 10) / 10;

/** The viewport's size in CSS px, for keeping focus samples inside it. */
export type Viewport = () => { width: number; height: number };

const windowViewport: Viewport = () => ({
  width: globalThis.innerWidth,
  height: globalThis.innerHeight,
});

/** Centre of [lo, hi] cut to [0, max]: the visible part's centre, or the nearest edge. */
function visibleCentre(lo: number, hi: number, max: number): number {
  const limit = Number.isFinite(max) && max > 0 ? max : Infinity;
  const cut = (v: number) => Math.min(Math.max(v, 0), limit);
  return (cut(lo) + cut(hi)) / 2;
}

export class PointerSampler {
  #samples: EntropyEvent[] = [];
  #origin = 0;
  #pressAt = -Infinity;
  #target: EventTarget | null = null;
  #focusTarget: EventTarget | null = null;

  constructor(
    private readonly clock: () => number = () => performance.now(),
    readonly capacity = SAMPLE_CAPACITY,
    private readonly viewport: Viewport = windowViewport,
  ) {}

  /**
   * Opens a new sampling window and listens for pointer movement on `target`
   * and for focus changes on `focusTarget` (the document by default).
   */
  attach(target: EventTarget = globalThis, focusTarget: EventTarget = target): void {
    this.detach();
    this.#origin = this.clock();
    this.#target = target;
    this.#focusTarget = focusTarget;
    // Passive: sampling must never delay scrolling or input handling.
    const opts = { passive: true, capture: true };
    target.addEventListener("pointermove", this.#onPointer, opts);
    target.addEventListener("touchmove", this.#onTouch, opts);
    target.addEventListener("pointerdown", this.#onPress, opts);
    focusTarget.addEventListener("focusin", this.#onFocus, opts);
  }

  /** Stops listening and drops every sample. */
  detach(): void {
    const opts = { capture: true };
    this.#target?.removeEventListener("pointermove", this.#onPointer, opts);
    this.#target?.removeEventListener("touchmove", this.#onTouch, opts);
    this.#target?.removeEventListener("pointerdown", this.#onPress, opts);
    this.#focusTarget?.removeEventListener("focusin", this.#onFocus, opts);
    this.#target = this.#focusTarget = null;
    this.#pressAt = -Infinity;
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

  #onPress = (): void => {
    this.#pressAt = this.clock();
  };

  #onFocus = (e: Event): void => {
    if (this.clock() - this.#pressAt < PRESS_FOCUS_MS) return;
    const el = e.target as Partial<Element> | null;
    if (typeof el?.getBoundingClientRect !== "function") return;
    const r = el.getBoundingClientRect();
    // Cut to the viewport: an element taller than the screen (or not yet
    // scrolled into view) is seen where it meets the screen, so one focus
    // change never adds more than the viewport's diagonal to the path.
    const { width, height } = this.viewport();
    this.record(visibleCentre(r.left, r.right, width), visibleCentre(r.top, r.bottom, height));
  };
}
