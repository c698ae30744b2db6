/**
 * Every refusal of the route and firewall services names the input at fault
 * in `field` (and its class decides the status), so forms can show it next
 * to the field without reading the message.
 */
import { assertEquals, assertRejects } from "../../tests/assert.ts";
import { tunnelHarness } from "../../tests/helpers/tunnels.ts";
import { ConflictError, type DomainError, UnprocessableError, ValidationError } from "../errors.ts";

type ErrorClass = new (...args: never[]) => DomainError;
type Case = [() => Promise<unknown>, ErrorClass, string, string];

async function check(cases: Case[]): Promise<void> {
  for (const [fn, cls, message, field] of cases) {
    const err = await assertRejects(fn, cls) as DomainError;
    assertEquals([err.message, err.field], [message, field]);
  }
}

Deno.test("route refusals carry the field they are about", async () => {
  await using h = await tunnelHarness();
  const wg1 = await h.tunnels.interfaces.create({ name: "wg1", address_v4: "10.8.0.1/24" }, "a");
  const r = h.tunnels.routes;
  await r.create({ destination: "10.50.0.0/24", gateway: "10.8.0.2" }, "a");
  const create = (input: Record<string, unknown>) => () =>
    r.create({ destination: "10.51.0.0/24", gateway: "10.8.0.2", ...input } as never, "a");
  const what = 'Cannot create route "10.51.0.0/24"';
  await check([
    [
      create({ destination: "10.51.0.9/24" }),
      ValidationError,
      'Cannot create route "10.51.0.9/24": destination "10.51.0.9/24" is not canonical; write it as "10.51.0.0/24"',
      "destination",
    ],
    [
      create({ gateway: "10.8.0" }),
      ValidationError,
      `${what}: gateway "10.8.0" is not an IPv4 address`,
      "gateway",
    ],
    [
      create({ metric: 4294967296 }),
      UnprocessableError,
      `${what}: metric 4294967296 is outside 0-4294967295`,
      "metric",
    ],
    [
      create({ gateway: "10.7.0.2" }),
      UnprocessableError,
      `${what}: gateway "10.7.0.2" is not reachable through any managed interface`,
      "gateway",
    ],
    [
      create({ gateway: "10.8.0.1" }),
      UnprocessableError,
      `${what}: gateway "10.8.0.1" is the address of interface "wg1" itself`,
      "gateway",
    ],
    [
      create({ interface_id: "nope" }),
      UnprocessableError,
      `${what}: interface_id "nope" is not a managed interface`,
      "interface_id",
    ],
    [
      create({ destination: "10.50.0.0/24" }),
      ConflictError,
      'Cannot create route "10.50.0.0/24": a route to "10.50.0.0/24" with metric 0 already exists',
      "destination",
    ],
    [
      () => h.tunnels.interfaces.delete(wg1.id, "a"),
      ConflictError,
      'Cannot delete interface "wg1": routes "10.50.0.0/24" use it; delete them first',
      "id",
    ],
    [
      () => h.tunnels.interfaces.update(wg1.id, { address_v4: "10.9.0.1/24" }, "a"),
      UnprocessableError,
      'Cannot update interface "wg1": route "10.50.0.0/24": gateway "10.8.0.2" is not inside "10.9.0.0/24" of interface "wg1"',
      "address_v4",
    ],
  ]);
  assertEquals((await r.list()).length, 1, "nothing refused was stored");
});

Deno.test("firewall rule refusals carry the field they are about", async () => {
  await using h = await tunnelHarness();
  const f = h.tunnels.firewall;
  await f.create({ name: "ssh", protocol: "tcp", port: 22, action: "accept" }, "a");
  const create = (input: Record<string, unknown>) => () =>
    f.create({ name: "web", protocol: "tcp", action: "accept", ...input } as never, "a");
  const what = 'Cannot create firewall rule "web"';
  await check([
    [
      create({ protocol: "sctp" }),
      ValidationError,
      `${what}: protocol "sctp" must be one of tcp, udp, icmp, any`,
      "protocol",
    ],
    [
      create({ action: "allow" }),
      ValidationError,
      `${what}: action "allow" must be one of accept, drop, reject`,
      "action",
    ],
    [
      create({ direction: "output" }),
      ValidationError,
      `${what}: direction "output" must be one of input, forward`,
      "direction",
    ],
    [
      create({ source: "10.0.0.1/8" }),
      ValidationError,
      `${what}: source "10.0.0.1/8" is not canonical; write it as "10.0.0.0/8"`,
      "source",
    ],
    [create({ port: 0 }), UnprocessableError, `${what}: port 0 is outside 1-65535`, "port"],
    [
      create({ protocol: "icmp", port: 8 }),
      UnprocessableError,
      `${what}: port 8 needs protocol tcp or udp, not "icmp"`,
      "port",
    ],
    [
      create({ interface_id: "nope" }),
      UnprocessableError,
      `${what}: interface_id "nope" is not a managed interface`,
      "interface_id",
    ],
    [
      create({ name: "ssh" }),
      ConflictError,
      'Cannot create firewall rule "ssh": name "ssh" is already used',
      "name",
    ],
  ]);
  assertEquals((await f.list()).length, 1, "nothing refused was stored");
});
