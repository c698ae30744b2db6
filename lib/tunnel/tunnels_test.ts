import { assertEquals, assertThrows } from "../../tests/assert.ts";
import { ConfigError } from "../errors.ts";
import { parseTunnelConfig } from "./tunnels.ts";

Deno.test("parseTunnelConfig() applies defaults and rejects bad values naming the variable", () => {
  assertEquals(parseTunnelConfig({}), {
    hostDriver: "auto",
    netns: undefined,
    pollMs: 5000,
    autoReconcile: false,
  });
  assertEquals(
    parseTunnelConfig({
      PALISADE_HOST_DRIVER: "linux",
      PALISADE_HOST_NETNS: "pltun-a1",
      PALISADE_HOST_POLL_MS: "1000",
      PALISADE_HOST_AUTO_RECONCILE: "true",
    }),
    { hostDriver: "linux", netns: "pltun-a1", pollMs: 1000, autoReconcile: true },
  );
  assertThrows(
    () => parseTunnelConfig({ PALISADE_HOST_DRIVER: "bsd" }),
    ConfigError,
    "PALISADE_HOST_DRIVER",
  );
  assertThrows(
    () => parseTunnelConfig({ PALISADE_HOST_POLL_MS: "10" }),
    ConfigError,
    "PALISADE_HOST_POLL_MS",
  );
  assertThrows(
    () => parseTunnelConfig({ PALISADE_HOST_NETNS: "a b" }),
    ConfigError,
    "PALISADE_HOST_NETNS",
  );
  assertThrows(() => parseTunnelConfig({ PALISADE_HOST_AUTO_RECONCILE: "yes" }), ConfigError);
});
