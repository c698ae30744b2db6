import { assertEquals } from "../tests/assert.ts";
import { checkMouse } from "../lib/attest/checks.ts";
import { PointerSampler } from "./pointer_sampler.ts";

function sampler(capacity?: number) {
  let now = 1000;
  const s = new PointerSampler(() => now, capacity, () => ({ width: 800, height: 600 }));
  const target = new EventTarget();
  s.attach(target);
  return {
    s,
    target,
    at(ms: number) {
      now = 1000 + ms;
    },
  };
}

function pointer(type: string, x: number, y: number): Event {
  return Object.assign(new Event("pointermove"), { pointerType: type, clientX: x, clientY: y });
}

/** A focusin whose target is an element with this bounding box (viewport px). */
function focus(left: number, top: number, width: number, height: number): Event {
  const rect = { left, top, right: left + width, bottom: top + height, width, height };
  const e = new Event("focusin");
  Object.defineProperty(e, "target", { value: { getBoundingClientRect: () => rect } });
  return e;
}

function touch(x: number, y: number): Event {
  return Object.assign(new Event("touchmove"), { touches: [{ clientX: x, clientY: y }] });
}

Deno.test("PointerSampler records mouse and pen moves relative to the window, rounded to 0.1", () => {
  const { s, target, at } = sampler();
  at(0.04);
  target.dispatchEvent(pointer("mouse", 10.04, 20.16));
  at(16.66);
  target.dispatchEvent(pointer("pen", 12.5, 21));
  assertEquals(s.take(), [{ x: 10, y: 20.2, t: 0 }, { x: 12.5, y: 21, t: 16.7 }]);
  assertEquals(s.take(), []);
});

Deno.test("PointerSampler takes touch from touchmove only, so a scroll still counts once", () => {
  const { s, target, at } = sampler();
  target.dispatchEvent(pointer("touch", 5, 5));
  at(10);
  target.dispatchEvent(touch(5, 5));
  at(20);
  target.dispatchEvent(touch(5, 40));
  assertEquals(s.take(), [{ x: 5, y: 5, t: 10 }, { x: 5, y: 40, t: 20 }]);
});

Deno.test("PointerSampler skips reports without movement and keeps the newest samples", () => {
  const { s, at } = sampler(3);
  for (let i = 0; i < 5; i++) {
    at(i * 10);
    s.record(i, 0);
    s.record(i, 0);
  }
  assertEquals(s.take(), [{ x: 2, y: 0, t: 20 }, { x: 3, y: 0, t: 30 }, { x: 4, y: 0, t: 40 }]);
});

Deno.test("PointerSampler giveBack() puts unsent samples ahead of newer ones; detach() stops", () => {
  const { s, target, at } = sampler(3);
  s.record(1, 1);
  const unsent = s.take();
  at(5);
  s.record(2, 2);
  s.giveBack(unsent);
  assertEquals(s.take().map((e) => e.x), [1, 2]);
  s.detach();
  target.dispatchEvent(pointer("mouse", 9, 9));
  assertEquals(s.size, 0);
});

Deno.test("PointerSampler adds a focus change at the focused element's centre, rounded, at that time", () => {
  const { s, target, at } = sampler();
  at(400.04);
  target.dispatchEvent(focus(20, 100, 300.25, 30));
  at(1250);
  target.dispatchEvent(focus(20, 150, 300, 30));
  // A focusin on something without a box (the document) adds nothing.
  target.dispatchEvent(new Event("focusin"));
  assertEquals(s.take(), [{ x: 170.1, y: 115, t: 400 }, { x: 170, y: 165, t: 1250 }]);
});

Deno.test("PointerSampler takes the centre of the element's part inside the viewport", () => {
  const { s, target, at } = sampler();
  // A text area taller than the 800×600 viewport, starting 200 px down.
  target.dispatchEvent(focus(100, 200, 400, 2000));
  at(10);
  // Scrolled out of view above and to the left: the nearest corner.
  target.dispatchEvent(focus(-500, -300, 100, 50));
  at(20);
  // Below the viewport.
  target.dispatchEvent(focus(700, 900, 200, 40));
  assertEquals(s.take(), [{ x: 300, y: 400, t: 0 }, { x: 0, y: 0, t: 10 }, {
    x: 750,
    y: 600,
    t: 20,
  }]);
});

Deno.test("PointerSampler ignores a focus change made by a pointer press within 1 s of it", () => {
  const { s, target, at } = sampler();
  target.dispatchEvent(pointer("mouse", 100, 100));
  at(200);
  target.dispatchEvent(pointer("mouse", 110, 102));
  target.dispatchEvent(new Event("pointerdown"));
  at(201);
  // A click into a large field: its centre is 300 px from the pointer.
  target.dispatchEvent(focus(0, 350, 800, 100));
  at(1199);
  target.dispatchEvent(focus(0, 450, 800, 100));
  assertEquals(s.take(), [{ x: 100, y: 100, t: 0 }, { x: 110, y: 102, t: 200 }]);
  // Later focus changes are the keyboard's again.
  at(1201);
  target.dispatchEvent(focus(0, 550, 800, 40));
  assertEquals(s.take(), [{ x: 400, y: 570, t: 1201 }]);
});

Deno.test("PointerSampler puts pointer and focus samples into one stream in time order", () => {
  const { s, target, at } = sampler();
  target.dispatchEvent(pointer("mouse", 5, 5));
  at(300);
  target.dispatchEvent(focus(0, 0, 100, 20));
  at(320);
  target.dispatchEvent(pointer("mouse", 6, 5));
  assertEquals(s.take().map((e) => e.t), [0, 300, 320]);
  s.detach();
  target.dispatchEvent(focus(0, 40, 100, 20));
  assertEquals(s.size, 0);
});

/** Tabs through fields 40 px apart, one press every `gapMs`; typing in a field adds nothing. */
function tabThrough(fields: number, gapMs: number) {
  const { s, target, at } = sampler();
  for (let i = 0; i < fields; i++) {
    at(i * gapMs);
    target.dispatchEvent(focus(40, 80 + i * 40, 240, 28));
  }
  return s.take();
}

Deno.test("the server's checks accept tabbing through three fields and refuse two or none", () => {
  assertEquals(checkMouse(tabThrough(3, 300)), null);
  assertEquals(checkMouse(tabThrough(8, 650)), null);
  assertEquals(checkMouse(tabThrough(2, 300)), "mouse_events");
  // Typing in one field moves no focus: no samples at all.
  assertEquals(checkMouse(tabThrough(0, 300)), "mouse_events");
  // A held Tab key repeating every 15 ms across fields 40 px apart is faster than a hand.
  assertEquals(checkMouse(tabThrough(8, 15)), "mouse_speed");
});
