import { assertEquals } from "../tests/assert.ts";
import { PointerSampler } from "./pointer_sampler.ts";

function sampler(capacity?: number) {
  let now = 1000;
  const s = new PointerSampler(() => now, capacity);
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
