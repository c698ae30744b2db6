/**
 * A plain-http delivery goes to the address the guard checked, not to a
 * second lookup made by fetch (docs/webhooks.md, "Which URLs are allowed"):
 * a name that answers a public address to the check and loopback to the
 * connection (DNS rebinding between the two lookups) must not reach a
 * loopback listener. The check's lookup is a resolver answering a
 * TEST-NET-1 address for `localhost`, while the system resolver fetch would
 * use answers 127.0.0.1 for it.
 */
import { assertEquals } from "../assert.ts";
import { WEBHOOK_DEFAULTS } from "../../lib/config/webhook_options.ts";
import { systemClock } from "../../lib/clock.ts";
import { sendAttempt } from "../../lib/webhooks/send.ts";
import type { WebhookRecord } from "../../lib/webhooks/webhook_repo.ts";

Deno.test("webhook send: an http delivery connects to the checked address, never to a rebound loopback", async () => {
  let hits = 0;
  let host: string | null = null;
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) => {
      hits++;
      host = req.headers.get("host");
      return new Response("ok");
    },
  );
  const hook: WebhookRecord = {
    id: "w1",
    url: `http://localhost:${server.addr.port}/hook`,
    events: ["zone.changed"],
    secret: "s".repeat(32),
    previousSecret: null,
    previousSecretUntil: null,
    enabled: true,
    createdAt: 0,
    updatedAt: 0,
    createdBy: "admin",
  };
  const settings = { ...WEBHOOK_DEFAULTS, timeoutMs: 300 };
  // What an attacker's DNS answers the check: a public address.
  const atCheck = () => Promise.resolve(["192.0.2.1"]);
  const outcome = await sendAttempt(
    hook,
    "{}",
    new AbortController(),
    settings,
    systemClock,
    atCheck,
  );
  assertEquals(hits, 0, "the loopback listener was reached");
  assertEquals(outcome.ok, false);

  // A checked address is still called by its name: the Host header carries it.
  const pinned = await sendAttempt(
    hook,
    "{}",
    new AbortController(),
    { ...settings, allowLocal: true },
    systemClock,
    () => Promise.resolve(["127.0.0.1"]),
  );
  assertEquals(pinned.ok, true, String(pinned.error));
  assertEquals(host, `localhost:${server.addr.port}`);
});
