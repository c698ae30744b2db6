import { assertEquals } from "../../tests/assert.ts";
import { interfaceCreateSchema, peerCreateSchema, peerListQuerySchema } from "./schemas.ts";

Deno.test("interfaceCreateSchema checks types only, leaving ranges to the service (422)", () => {
  assertEquals(
    interfaceCreateSchema.safeParse({ name: "wg1", address_v4: "10.8.0.1/24", listen_port: 70000 })
      .success,
    true,
  );
  assertEquals(
    interfaceCreateSchema.safeParse({
      name: "wg1",
      address_v4: "10.8.0.1/24",
      listen_port: "51820",
    }).success,
    false,
  );
  assertEquals(
    interfaceCreateSchema.safeParse({ name: "wg1", address_v4: "10.8.0.1/24", mtu: 1420.5 })
      .success,
    false,
  );
  assertEquals(
    interfaceCreateSchema.safeParse({ name: "wg1", address_v4: "10.8.0.1/24", extra: 1 }).success,
    false,
  );
});

Deno.test("peerCreateSchema accepts the optional fields and rejects an unknown profile", () => {
  const ok = peerCreateSchema.safeParse({
    name: "a",
    profile: "split-tunnel",
    mtu: null,
    keepalive: 25,
    preshared_key: false,
  });
  assertEquals(ok.success, true);
  assertEquals(peerCreateSchema.safeParse({ name: "a", profile: "half-tunnel" }).success, false);
  assertEquals(peerListQuerySchema.parse({ limit: "50", offset: "0" }), { limit: 50, offset: 0 });
});
