/**
 * Every refusal about an input names that input in `field`, so that forms
 * show it next to the field without reading the message.
 */
import { assertEquals, assertRejects } from "../../tests/assert.ts";
import { tunnelHarness } from "../../tests/helpers/tunnels.ts";
import {
  ConflictError,
  type DomainError,
  NotFoundError,
  UnprocessableError,
  ValidationError,
} from "../errors.ts";
import { keys } from "./keys.ts";

type ErrorClass = new (...args: never[]) => DomainError;

async function refusal(
  fn: () => Promise<unknown>,
  cls: ErrorClass,
  message: string,
): Promise<[string, string | undefined, string | undefined]> {
  const err = await assertRejects(fn, cls) as DomainError;
  assertEquals(err.message, message);
  return [err.name, err.field, err.code];
}

Deno.test("interface refusals carry the field they are about", async () => {
  await using h = await tunnelHarness();
  const s = h.tunnels.interfaces;
  await s.create({ name: "wg1", address_v4: "10.8.0.1/24", listen_port: 51821 }, "a");
  const cases: [() => Promise<unknown>, ErrorClass, string, string][] = [
    [
      () => s.create({ name: "wg3", address_v4: "10.7.0.1/24", mtu: 99 }, "a"),
      UnprocessableError,
      'Cannot create interface "wg3": mtu 99 is outside 1280-9000',
      "mtu",
    ],
    [
      () => s.create({ name: "wg3", address_v4: "10.7.0.1/24", listen_port: 70000 }, "a"),
      UnprocessableError,
      'Cannot create interface "wg3": listen_port 70000 is outside 1-65535',
      "listen_port",
    ],
    [
      () => s.create({ name: "wg3", address_v4: "10.7.0.0/24" }, "a"),
      UnprocessableError,
      'Cannot create interface "wg3": address_v4 10.7.0.0/24 must be a host address in a block of /30 or larger',
      "address_v4",
    ],
    [
      () => s.create({ name: "wg1", address_v4: "10.7.0.1/24" }, "a"),
      ConflictError,
      'Cannot create interface "wg1": name "wg1" is already used',
      "name",
    ],
    [
      () => s.create({ name: "wg2", address_v4: "10.8.0.1/24" }, "a"),
      ConflictError,
      'Cannot create interface "wg2": address 10.8.0.1/24 is already used',
      "address_v4",
    ],
    [
      () => s.create({ name: "wg2", address_v4: "10.8.0.200/25" }, "a"),
      ConflictError,
      'Cannot create interface "wg2": address 10.8.0.200/25 overlaps 10.8.0.0/24 of interface "wg1"',
      "address_v4",
    ],
    [
      () => s.create({ name: "wg2", address_v4: "10.9.0.1/24", listen_port: 51821 }, "a"),
      ConflictError,
      'Cannot create interface "wg2": listen_port 51821 is already used by interface "wg1"',
      "listen_port",
    ],
  ];
  for (const [fn, cls, message, field] of cases) {
    assertEquals((await refusal(fn, cls, message))[1], field, message);
  }
});

Deno.test("peer refusals carry the field they are about; name and key conflicts are found before the write", async () => {
  await using h = await tunnelHarness();
  const iface = await h.tunnels.interfaces.create({ name: "wg1", address_v4: "10.8.0.1/24" }, "a");
  const p = h.tunnels.peers;
  const own = (await keys()).publicKey;
  const first = await p.create(iface.id, { name: "a", public_key: own }, "a");
  const create = (input: Parameters<typeof p.create>[1]) => () => p.create(iface.id, input, "a");
  assertEquals(
    await refusal(
      create({ name: "b", public_key: own }),
      ConflictError,
      'Cannot create peer "b": public_key is already used by another peer',
    ),
    ["ConflictError", "public_key", "duplicate_public_key"],
  );
  assertEquals(
    await refusal(
      create({ name: "a" }),
      ConflictError,
      'Cannot create peer "a": name "a" is already used on this interface',
    ),
    ["ConflictError", "name", "duplicate_name"],
  );
  const second = await p.create(iface.id, { name: "b" }, "a");
  assertEquals(
    await refusal(
      () => p.update(second.id, { name: "a" }, "a"),
      ConflictError,
      'Cannot update peer "b": name "a" is already used on this interface',
    ),
    ["ConflictError", "name", "duplicate_name"],
  );
  await assertRejects(
    () => p.createMany(iface.id, [{ name: "c" }, { name: "c" }], "a"),
    ConflictError,
    'Cannot create peer "c": name "c" is already used on this interface',
  );
  const fields: [() => Promise<unknown>, ErrorClass, string, string][] = [
    [create({ name: "x", mtu: 99 }), UnprocessableError, "mtu 99 is outside 1280-9000", "mtu"],
    [create({ name: "x", keepalive: -1 }), UnprocessableError, "keepalive -1", "keepalive"],
    [create({ name: "x", address: "10.9.0.5" }), UnprocessableError, "host address", "address"],
    [create({ name: "x", address: first.address }), ConflictError, "already used", "address"],
    [create({ name: "x", address: "nope" }), ValidationError, "not an IPv4", "address"],
    [create({ name: "x", allowed_ips: "foo" }), ValidationError, "allowed_ips", "allowed_ips"],
    [create({ name: "x", dns: "a b" }), ValidationError, "dns", "dns"],
    [() => p.create("nope", { name: "x" }, "a"), NotFoundError, "does not exist", "interface_id"],
  ];
  for (const [fn, cls, text, field] of fields) {
    const err = await assertRejects(fn, cls, text) as DomainError;
    assertEquals(err.field, field, text);
  }
  assertEquals(await p.count(), 2, "nothing refused was stored");
  h.endpoint.enabled = false;
  const noEndpoint = await assertRejects(() => p.config(second.id, {}, "a")) as DomainError;
  assertEquals(noEndpoint.field, "endpoint");
  const badPort = await assertRejects(() => p.config(second.id, { endpoint: "h:70000" }, "a"));
  assertEquals((badPort as DomainError).field, "endpoint");
});
