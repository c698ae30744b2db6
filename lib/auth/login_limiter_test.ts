import { assertEquals, assertRejects } from "../../tests/assert.ts";
import { rawRow } from "../../tests/helpers/raw_sql.ts";
import { tempStore } from "../../tests/helpers/temp_store.ts";
import { ManualClock } from "../clock.ts";
import { parseConfig } from "../config/config.ts";
import { RateLimitError } from "../errors.ts";
import { SqliteAsync } from "../store/sqlite_async.ts";
import type { Store } from "../store/store.ts";
import { SqliteLoginAttemptRepo } from "./login_attempt_repo.ts";
import { LoginLimiter } from "./login_limiter.ts";

const DAY = 86_400_000;

/** A limiter over `store` with the default settings and a sleep that only records. */
function limiter(store: Store, clock: ManualClock, slept: number[] = []) {
  const options = parseConfig({}).login;
  const db = SqliteAsync.of(store);
  return new LoginLimiter(new SqliteLoginAttemptRepo(db), db, clock, options, (ms) => {
    slept.push(ms);
    return Promise.resolve();
  });
}

/** One full failed attempt, as AuthService makes it. */
async function failOnce(l: LoginLimiter, username: string, address: string): Promise<void> {
  const release = await l.begin(username, address);
  await l.fail(username, address);
  release();
}

async function retryAfter(
  l: LoginLimiter,
  username: string,
  address: string,
): Promise<number | null> {
  try {
    (await l.begin(username, address))();
    return null;
  } catch (err) {
    if (err instanceof RateLimitError) return err.retryAfterSeconds;
    throw err;
  }
}

Deno.test("a wait survives a restart and ends once the failures leave the 24-hour window", async () => {
  await using s = await tempStore();
  const clock = new ManualClock();
  const before = limiter(s.store, clock);
  for (let i = 0; i < 5; i++) await failOnce(before, "admin", "203.0.113.7");
  const after = limiter(s.store, clock);
  assertEquals(await retryAfter(after, "admin", "203.0.113.7"), 1);
  clock.advance(DAY + 1);
  assertEquals(await retryAfter(after, "admin", "203.0.113.7"), null);
  await failOnce(after, "someone", "192.0.2.1");
  const left = rawRow<{ n: number }>(s.store, "login_failures", ["count(*) AS n"]);
  assertEquals(left?.n, 1, "the expired failures are deleted with the next failure");
});

Deno.test("a success clears only its own address's failures for the username", async () => {
  await using s = await tempStore();
  const clock = new ManualClock();
  const l = limiter(s.store, clock);
  for (let i = 0; i < 5; i++) await failOnce(l, "admin", "203.0.113.7");
  await failOnce(l, "admin", "198.51.100.20");
  await l.succeed("ADMIN", "198.51.100.20");
  assertEquals(await retryAfter(l, "admin", "203.0.113.7"), 1);
  assertEquals(
    rawRow<{ n: number }>(s.store, "login_failures", ["count(*) AS n"], {
      address: "198.51.100.20",
    })?.n,
    0,
  );
});

Deno.test("parallel attempts past the free failures are refused while one is being checked", async () => {
  await using s = await tempStore();
  const l = limiter(s.store, new ManualClock());
  // Started together: each counts the ones reserved before it, while the failures are read.
  const started = await Promise.allSettled(
    [1, 2, 3, 4, 5, 6].map(() => l.begin("admin", "203.0.113.7")),
  );
  const releases = started.flatMap((r) => r.status === "fulfilled" ? [r.value] : []);
  assertEquals(releases.length, 5);
  const refused = started[5];
  assertEquals(refused.status === "rejected" && refused.reason instanceof RateLimitError, true);
  await assertRejects(() => l.begin("admin", "203.0.113.7"), RateLimitError);
  // Another address is not held up by them.
  (await l.begin("admin", "198.51.100.20"))();
  for (const release of releases) release();
  (await l.begin("admin", "203.0.113.7"))();
});

Deno.test("IPv6 clients count by their /64, IPv4-mapped ones as IPv4", async () => {
  await using s = await tempStore();
  const l = limiter(s.store, new ManualClock());
  for (let i = 1; i <= 5; i++) await failOnce(l, "admin", `2001:db8:1:2::${i}`);
  assertEquals(await retryAfter(l, "admin", "2001:db8:1:2:ffff::9"), 1);
  assertEquals(await retryAfter(l, "admin", "2001:db8:1:3::1"), null);
  for (let i = 1; i <= 5; i++) await failOnce(l, "admin", "::ffff:192.0.2.1");
  assertEquals(await retryAfter(l, "admin", "192.0.2.1"), 1);
});

Deno.test("after 10 failures from any address the slow-down grows by 200 ms a failure and stops at 2 s", async () => {
  await using s = await tempStore();
  const slept: number[] = [];
  const l = limiter(s.store, new ManualClock(), slept);
  const delays: number[] = [];
  for (let i = 1; i <= 22; i++) {
    await failOnce(l, "Admin", `192.0.2.${i}`);
    slept.length = 0;
    await l.slowDown("admin");
    delays.push(slept[0] ?? 0);
  }
  assertEquals(delays, [
    ...[0, 0, 0, 0, 0, 0, 0, 0, 0],
    ...[200, 400, 600, 800, 1000, 1200, 1400, 1600, 1800, 2000],
    ...[2000, 2000, 2000],
  ]);
  slept.length = 0;
  await l.slowDown("someone-else");
  assertEquals(slept, []);
});
