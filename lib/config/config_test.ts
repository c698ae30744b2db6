import { assertEquals, assertThrows } from "../../tests/assert.ts";
import { ConfigError } from "../errors.ts";
import { OPTIONS, parseConfig, parseListen } from "./config.ts";

Deno.test("parseConfig() uses the documented defaults", () => {
  const c = parseConfig({});
  assertEquals(c.dataDir, "./data");
  assertEquals(c.adminListen, { hostname: "127.0.0.1", port: 8000 });
  assertEquals(c.attestListen, { hostname: "0.0.0.0", port: 8080 });
  assertEquals(c.dnsApiListen, { hostname: "127.0.0.1", port: 8081 });
  assertEquals(c.dnsListen, { hostname: "127.0.0.1", port: 5300 });
  assertEquals(c.hostDriver, "auto");
  assertEquals(c.adminPassword, null);
});

Deno.test("parseConfig() lets a flag override its environment variable", () => {
  const c = parseConfig({ PALISADE_ADMIN_LISTEN: "127.0.0.1:1" }, [
    "--admin-listen",
    "[::1]:9000",
    "--log=debug",
  ]);
  assertEquals(c.adminListen, { hostname: "::1", port: 9000 });
  assertEquals(c.logLevel, "debug");
});

Deno.test("parseConfig() names the variable in its error", () => {
  const err = assertThrows(() => parseConfig({ PALISADE_ADMIN_PASSWORD: "short" }), ConfigError);
  assertEquals((err as ConfigError).variable, "PALISADE_ADMIN_PASSWORD");
});

Deno.test("parseListen() accepts host:port, [v6]:port and :port, and rejects the rest", () => {
  assertEquals(parseListen("0.0.0.0:53", "X"), { hostname: "0.0.0.0", port: 53 });
  assertEquals(parseListen("[::]:53", "X"), { hostname: "::", port: 53 });
  assertEquals(parseListen(":8080", "X"), { hostname: "0.0.0.0", port: 8080 });
  for (const bad of ["8080", "host:", "host:70000", "a:b:c", "[::1]"]) {
    assertThrows(() => parseListen(bad, "X"), ConfigError, "X");
  }
});

Deno.test("every configuration variable and flag is in the README table", async () => {
  const readme = await Deno.readTextFile(new URL("../../README.md", import.meta.url));
  for (const o of OPTIONS) {
    const row = readme.split("\n").find((l) => l.startsWith("|") && l.includes(`\`${o.env}\``));
    if (!row) throw new Error(`README lacks a row for ${o.env}`);
    if (!row.includes(`\`${o.flag}\``)) throw new Error(`README row of ${o.env} lacks ${o.flag}`);
  }
});
