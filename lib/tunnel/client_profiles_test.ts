import { assertEquals, assertThrows } from "../../tests/assert.ts";
import { ValidationError } from "../errors.ts";
import { clientProfiles, resolveClientProfile } from "./client_profiles.ts";

Deno.test("resolveClientProfile() applies connection then device rules", () => {
  assertEquals([
    resolveClientProfile("desktop", "ipv4").mtu,
    resolveClientProfile("desktop", "ipv4").keepalive,
  ], [1440, 25]);
  assertEquals([
    resolveClientProfile("desktop", "ipv6").mtu,
    resolveClientProfile("desktop", "ipv6").keepalive,
  ], [1420, 0]);
  assertEquals(resolveClientProfile("desktop", "pppoe").mtu, 1412);
  assertEquals(resolveClientProfile("mobile", "cellular").mtu, 1280);
  assertEquals(resolveClientProfile("mobile", "ipv4").mtu, 1420);
  assertEquals(resolveClientProfile("router", "ipv6").keepalive, 25);
  assertEquals(resolveClientProfile("desktop", "restrictive-nat").keepalive, 15);
  assertEquals(resolveClientProfile().id, "desktop/ipv4");
});

Deno.test("resolveClientProfile() rejects an unknown device or connection", () => {
  assertThrows(() => resolveClientProfile("toaster", "ipv4"), ValidationError, "toaster");
  assertThrows(
    () => resolveClientProfile("desktop", "carrier-pigeon"),
    ValidationError,
    "carrier-pigeon",
  );
});

Deno.test("clientProfiles() lists every device and connection once, within MTU bounds", () => {
  const all = clientProfiles();
  assertEquals(all.length, 15);
  assertEquals(new Set(all.map((p) => p.id)).size, 15);
  for (const p of all) {
    assertEquals(p.mtu >= 1280 && p.mtu <= 1440, true, p.id);
    assertEquals(p.rules.length >= 2, true);
  }
});
