/**
 * What the route and firewall services hand the host driver: the desired
 * lists given to setRoutes and setFirewall (order, disabled rules and a
 * disabled interface's routes absent, device and iifname from the interface),
 * when they are applied, and that RouteChanged and FirewallChanged go out
 * only after the host applied the change.
 */
import { RecordingDriver } from "../../tests/helpers/recording_driver.ts";
import { assert, assertEquals, assertRejects } from "../../tests/assert.ts";
import { tunnelHarness } from "../../tests/helpers/tunnels.ts";
import { EventBus } from "../events/bus.ts";
import { HostError } from "../errors.ts";
import type { DesiredFirewallRule } from "../host/net_state.ts";
import { silentLogger } from "../log/log.ts";
import { createTunnels } from "./tunnels.ts";

/** Two interfaces (wg1 10.8.0.1/24, wg2 10.9.0.1/24); events and host calls in one log. */
async function setup() {
  const log: string[] = [];
  const driver = new RecordingDriver(log, (d) => `${d.name} ${d.up ? "up" : "down"}`);
  const h = await tunnelHarness(driver, { pollMs: 3_600_000 });
  const wg1 = await h.tunnels.interfaces.create({ name: "wg1", address_v4: "10.8.0.1/24" }, "a");
  const wg2 = await h.tunnels.interfaces.create({ name: "wg2", address_v4: "10.9.0.1/24" }, "a");
  log.length = 0;
  const push = h.events.push.bind(h.events);
  h.events.push = (...events) => {
    for (const e of events) {
      if (e.type === "RouteChanged" || e.type === "FirewallChanged") {
        log.push(`${e.type} ${e.payload.action}`);
      }
    }
    return push(...events);
  };
  return { h, driver, log, wg1, wg2 };
}

const route = (destination: string, gateway: string, metric: number, device: string) => ({
  destination,
  gateway,
  metric,
  device,
});

Deno.test("setRoutes gets every route of an enabled interface, by destination then metric, through its device", async () => {
  const { h, driver, log, wg1, wg2 } = await setup();
  await using _ = h;
  const r = h.tunnels.routes;
  await r.create({ destination: "10.60.0.0/24", gateway: "10.9.0.2", metric: 5 }, "a");
  await r.create({ destination: "10.50.0.0/24", gateway: "10.8.0.2" }, "a");
  const def = await r.create({ destination: "0.0.0.0/0", gateway: "10.8.0.3", metric: 100 }, "a");
  await r.create({ destination: "10.50.0.0/24", gateway: "10.9.0.2", metric: 1 }, "a");
  const all = [
    route("0.0.0.0/0", "10.8.0.3", 100, "wg1"),
    route("10.50.0.0/24", "10.8.0.2", 0, "wg1"),
    route("10.50.0.0/24", "10.9.0.2", 1, "wg2"),
    route("10.60.0.0/24", "10.9.0.2", 5, "wg2"),
  ];
  assertEquals(driver.routes.at(-1), all);

  // A disabled interface's routes leave the host; enabling puts them back.
  await h.tunnels.interfaces.disable(wg2.id, "a");
  assertEquals(driver.routes.at(-1), all.filter((x) => x.device === "wg1"));
  await h.tunnels.interfaces.enable(wg2.id, "a");
  assertEquals(driver.routes.at(-1), all);
  // A rename moves the routes to the new device.
  await h.tunnels.interfaces.update(wg1.id, { name: "office" }, "a");
  assertEquals(
    driver.routes.at(-1)!.map((x) => x.device),
    ["office", "office", "wg2", "wg2"],
  );
  await r.delete(def.id, "a");
  assertEquals(driver.routes.at(-1)!.length, 3);
  assertEquals(log.filter((l) => l.startsWith("RouteChanged")), [
    "RouteChanged created",
    "RouteChanged created",
    "RouteChanged created",
    "RouteChanged created",
    "RouteChanged deleted",
  ]);
  // Each announcement follows its host apply.
  for (const [i, l] of log.entries()) {
    if (l.startsWith("RouteChanged")) assert(log[i - 1].startsWith("setRoutes"), log.join("\n"));
  }
});

Deno.test("interface changes that do not touch routes or rules leave setRoutes and setFirewall alone", async () => {
  const { h, log, wg1 } = await setup();
  await using _ = h;
  await h.tunnels.interfaces.disable(wg1.id, "a");
  await h.tunnels.interfaces.enable(wg1.id, "a");
  await h.tunnels.interfaces.update(wg1.id, { name: "office" }, "a");
  assertEquals(log.filter((l) => l.startsWith("set")), []);
});

Deno.test("setFirewall gets the enabled rules by position with the interface's name; disabled rules are absent", async () => {
  const { h, driver, log, wg1 } = await setup();
  await using _ = h;
  const f = h.tunnels.firewall;
  const a = await f.create(
    { name: "ssh", protocol: "tcp", port: 22, action: "accept", interface_id: wg1.id },
    "a",
  );
  const b = await f.create(
    { name: "ping", protocol: "icmp", action: "drop", enabled: false },
    "a",
  );
  const c = await f.create({
    name: "dns",
    protocol: "udp",
    port: 53,
    action: "reject",
    direction: "forward",
    source: "192.168.1.0/24",
  }, "a");
  const ruleA: DesiredFirewallRule = {
    id: a.id,
    protocol: "tcp",
    port: 22,
    action: "accept",
    direction: "input",
    iifname: "wg1",
    source: null,
  };
  const ruleB: DesiredFirewallRule = {
    id: b.id,
    protocol: "icmp",
    port: null,
    action: "drop",
    direction: "input",
    iifname: null,
    source: null,
  };
  const ruleC: DesiredFirewallRule = {
    id: c.id,
    protocol: "udp",
    port: 53,
    action: "reject",
    direction: "forward",
    iifname: null,
    source: "192.168.1.0/24",
  };
  assertEquals(driver.firewall.at(-1), [ruleA, ruleC]);
  await f.disable(a.id, "a");
  assertEquals(driver.firewall.at(-1), [ruleC]);
  await f.enable(b.id, "a");
  assertEquals(driver.firewall.at(-1), [ruleB, ruleC]);
  await f.enable(a.id, "a");
  assertEquals(driver.firewall.at(-1), [ruleA, ruleB, ruleC]);
  await h.tunnels.interfaces.update(wg1.id, { name: "office" }, "a");
  assertEquals(driver.firewall.at(-1)![0].iifname, "office");
  await f.delete(b.id, "a");
  assertEquals(driver.firewall.at(-1)!.map((x) => x.id), [a.id, c.id]);
  // A repeated enable re-applies the table but announces nothing.
  const before = log.filter((l) => l.startsWith("FirewallChanged")).length;
  await f.enable(a.id, "a");
  assertEquals(log.at(-1), "setFirewall 2");
  assertEquals(log.filter((l) => l.startsWith("FirewallChanged")).length, before);
});

Deno.test("no RouteChanged or FirewallChanged when the host apply fails: HostError says the change was saved", async () => {
  const { h, driver, log } = await setup();
  await using _ = h;
  const rule = await h.tunnels.firewall.create(
    { name: "ssh", protocol: "tcp", port: 22, action: "accept" },
    "a",
  );
  driver.failing.add("setRoutes").add("setFirewall");
  log.length = 0;
  await assertRejects(
    () => h.tunnels.routes.create({ destination: "10.50.0.0/24", gateway: "10.8.0.2" }, "a"),
    HostError,
    'Route "10.50.0.0/24" was saved, but applying it to the host failed',
  );
  await assertRejects(() => h.tunnels.firewall.disable(rule.id, "a"), HostError, "was saved");
  await assertRejects(() => h.tunnels.firewall.delete(rule.id, "a"), HostError, "was saved");
  // A route converges its interface's peers first (the gateway peer's AllowedIPs), then the routes.
  assertEquals(log, ["sync wg1 up", "setRoutes 1", "setFirewall 0", "setFirewall 0"]);
  // The store kept every change, and the audit trail has them.
  const [stored] = await h.tunnels.routes.list();
  assertEquals(stored.destination, "10.50.0.0/24");
  assertEquals(await h.tunnels.firewall.list(), []);
  const types = (await h.audit.list({ limit: 50, offset: 0 })).records.map((r) => r.event_type);
  assert(
    ["route.created", "firewall.disabled", "firewall.deleted"].every((t) => types.includes(t)),
  );
  // Once the host works again, the next change is announced.
  driver.failing.clear();
  await h.tunnels.routes.delete(stored.id, "a");
  assertEquals(log.slice(-2), ["setRoutes 0", "RouteChanged deleted"]);
});

Deno.test("start() applies the stored routes and firewall table after the interfaces; a failure is reported, not thrown", async () => {
  const { h, wg1 } = await setup();
  await using _ = h;
  await h.tunnels.routes.create({ destination: "10.50.0.0/24", gateway: "10.8.0.2" }, "a");
  await h.tunnels.firewall.create({ name: "ssh", protocol: "tcp", action: "accept" }, "a");
  await h.tunnels.interfaces.disable(wg1.id, "a");
  const startWith = async (failing: string[]) => {
    const log: string[] = [];
    const driver = new RecordingDriver(log, (d) => `${d.name} ${d.up ? "up" : "down"}`);
    for (const m of failing) driver.failing.add(m);
    const again = createTunnels({
      store: h.store,
      audit: h.audit,
      events: new EventBus(),
      logger: silentLogger,
      driver,
      serverEndpoint: () => ({ host: null, port: null, enabled: false }),
      pollMs: 3_600_000,
    });
    const result = await again.start();
    const diag = await again.diagnostics();
    await again.stop();
    return { log, driver, result, diag };
  };
  const ok = await startWith([]);
  assertEquals(ok.log.slice(-4), ["sync wg1 down", "sync wg2 up", "setRoutes 0", "setFirewall 1"]);
  assertEquals(ok.diag.checks.find((c) => c.name === "startup_apply"), undefined);

  const failed = await startWith(["setRoutes"]);
  // The firewall is still applied when the routes failed.
  assertEquals(failed.log.slice(-2), ["setRoutes 0", "setFirewall 1"]);
  assertEquals(failed.result.verified, false);
  const check = failed.diag.checks.find((c) => c.name === "startup_apply");
  assertEquals(check?.status, "fail");
  assertEquals(check?.message, "Applying stored routes failed: setRoutes 0 failed");
});
