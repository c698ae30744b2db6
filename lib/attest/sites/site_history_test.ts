import { assertEquals } from "../../../tests/assert.ts";
import { ManualClock } from "../../clock.ts";
import { type BusEvent, EventBus } from "../../events/bus.ts";
import type { SiteFiguresAll } from "./site_service.ts";
import { SiteHistory } from "./site_history.ts";

/** Figures with `accepted` and `issued` set, the rest zero. */
function fig(accepted: number, issued: number): SiteFiguresAll {
  return {
    sessionsCreated: 0,
    initRefused: 0,
    accepted,
    rejected: new Map(),
    rejectedTotal: 0,
    tokens: {
      issued,
      refused: 0,
      verified: 0,
      reused: 0,
      failed: {} as SiteFiguresAll["tokens"]["failed"],
      failedTotal: 0,
    },
  };
}

Deno.test("SiteHistory keeps per-minute buckets for the last hour and per-hour ones for the last day, and announces changes only", () => {
  // 10:00:30 UTC.
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 10, 0, 30));
  const bus = new EventBus();
  const sent: BusEvent[] = [];
  bus.subscribe((e) => sent.push(e));
  let now = fig(0, 0);
  const history = new SiteHistory(() => [{ id: "s1", figures: now }], bus, clock);
  history.tick();
  assertEquals(sent.length, 0, "the first read announces nothing");
  now = fig(4, 1);
  clock.advance(20_000); // 10:00:50
  history.tick();
  assertEquals(sent.map((e) => e.type), ["AttestSiteStats"]);
  history.tick();
  assertEquals(sent.length, 1, "nothing changed, nothing sent");
  clock.advance(20_000); // 10:01:10: a new minute
  now = fig(6, 1);
  history.tick();
  clock.advance(60_000); // 10:02:10
  now = fig(9, 3);
  history.tick();
  const v = history.view("s1", fig(10, 3));
  // 10:00:30–10:01 (opened at the first read), 10:01–10:02, 10:02–now.
  assertEquals(v.minutes.map((b) => [b.at.slice(11, 19), b.figures.accepted, b.figures.issued]), [
    ["10:00:30", 6, 1],
    ["10:01:00", 3, 2],
    ["10:02:00", 1, 0],
  ]);
  assertEquals(v.hours.map((b) => [b.at.slice(11, 19), b.figures.accepted]), [["10:00:30", 10]]);

  // Two hours of minutes later: 60 minute buckets at most, and one per hour.
  for (let i = 0; i < 120; i++) {
    clock.advance(60_000);
    history.tick();
  }
  const later = history.view("s1", fig(10, 3));
  assertEquals(later.minutes.length, 60);
  assertEquals(later.hours.map((b) => b.at.slice(11, 16)), ["10:00", "11:00", "12:00"]);
  // Counted 9 by 11:00; the open hour holds the one the view's figures add.
  assertEquals(later.hours.map((b) => b.figures.accepted), [9, 0, 1]);
  // A site gone is forgotten.
  const empty = new SiteHistory(() => [], bus, clock);
  empty.tick();
  assertEquals(empty.view("s1", fig(0, 0)), { minutes: [], hours: [] });
});
