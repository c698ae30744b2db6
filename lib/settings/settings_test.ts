import { assertEquals, assertThrows } from "../../tests/assert.ts";
import { UnprocessableError } from "../errors.ts";
import { normalizeServerHost, normalizeServerPort } from "./settings.ts";

Deno.test("normalizeServerHost() accepts names and addresses without a port", () => {
  assertEquals(normalizeServerHost("VPN.Example.org"), "vpn.example.org");
  assertEquals(normalizeServerHost("203.0.113.7"), "203.0.113.7");
  assertEquals(normalizeServerHost("2001:db8::1"), "2001:db8::1");
});

Deno.test("normalizeServerHost() rejects an embedded port and junk with 422", () => {
  for (
    const bad of [
      "vpn.example.org:51820",
      "203.0.113.7:1",
      "[2001:db8::1]:51820",
      "bad host",
      "-x.org",
      "",
    ]
  ) {
    assertThrows(() => normalizeServerHost(bad), UnprocessableError);
  }
});

Deno.test("normalizeServerPort() accepts 1-65535 only", () => {
  assertEquals(normalizeServerPort(" 51820 "), "51820");
  for (const bad of ["0", "65536", "-1", "1.5", "abc", ""]) {
    assertThrows(() => normalizeServerPort(bad), UnprocessableError);
  }
});

Deno.test("a server host the settings accept is one a client configuration accepts", async () => {
  const { hostKind } = await import("../net/host.ts");
  for (const bad of ["vpn.example.org.", "::ffff:192.0.2.1", "fe80::1%eth0"]) {
    assertThrows(() => normalizeServerHost(bad), UnprocessableError);
    assertEquals(hostKind(bad), null, bad);
  }
  for (const good of ["vpn.example.org", "192.0.2.1", "2001:db8::1"]) {
    assertEquals(hostKind(normalizeServerHost(good)) !== null, true);
  }
});

Deno.test("a refused setting value names the value field", () => {
  for (
    const bad of [
      () => normalizeServerHost(""),
      () => normalizeServerHost("vpn.example.org:51820"),
      () => normalizeServerHost("bad host"),
      () => normalizeServerPort("0"),
    ]
  ) {
    assertEquals((assertThrows(bad, UnprocessableError) as UnprocessableError).field, "value");
  }
});
