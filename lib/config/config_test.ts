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

Deno.test("parseConfig() reads the host, DNS and attestation options and names a bad one", () => {
  const c = parseConfig({
    PALISADE_HOST_NETNS: "pltun-a1",
    PALISADE_HOST_POLL_MS: "1000",
    PALISADE_HOST_AUTO_RECONCILE: "true",
    PALISADE_ROUTE_TABLE: "1000",
    PALISADE_ROUTE_PROTOCOL: "120",
    PALISADE_NFT_TABLE: "pal_1",
    PALISADE_DEFAULT_INTERFACE: "false",
    PALISADE_DNS_NAMESERVERS: "ns1.example.net, ns2.example.net.",
    PALISADE_DNS_AXFR_ALLOW: "127.0.0.1,10.0.0.0/8",
    PALISADE_DNS_NOTIFY: "127.0.0.1:5301",
    PALISADE_ATTEST_HB_MIN_MS: "1500",
    PALISADE_ATTEST_HB_MAX_MS: "2500",
  });
  assertEquals(c.host, {
    netns: "pltun-a1",
    pollMs: 1000,
    autoReconcile: true,
    defaultInterface: false,
    routeTable: 1000,
    routeProtocol: 120,
    nftTable: "pal_1",
  });
  assertEquals(
    [parseConfig({}).host.routeTable, parseConfig({}).host.routeProtocol],
    [254, 97],
  );
  assertEquals(parseConfig({}).host.nftTable, "palisade");
  assertEquals(parseConfig({}).host.defaultInterface, true);
  assertEquals(c.dns.nameservers, ["ns1.example.net", "ns2.example.net."]);
  assertEquals(c.dns.notify, [{ hostname: "127.0.0.1", port: 5301 }]);
  assertEquals([c.attest.heartbeatMinMs, c.attest.heartbeatMaxMs], [1500, 2500]);
  const bad: Record<string, string>[] = [
    { PALISADE_HOST_POLL_MS: "10" },
    { PALISADE_HOST_NETNS: "a b" },
    { PALISADE_HOST_AUTO_RECONCILE: "maybe" },
    { PALISADE_ROUTE_TABLE: "255" },
    { PALISADE_ROUTE_TABLE: "0" },
    { PALISADE_ROUTE_PROTOCOL: "2" },
    { PALISADE_ROUTE_PROTOCOL: "256" },
    { PALISADE_NFT_TABLE: "bad name" },
    { PALISADE_NFT_TABLE: 'x"; flush ruleset' },
    { PALISADE_DNS_AXFR_ALLOW: "10.0.0.0/33" },
    { PALISADE_DNS_NOTIFY: "ns1.example.net" },
    { PALISADE_ATTEST_HB_MIN_MS: "30000" },
    { PALISADE_ATTEST_GENE_SIZE: "big" },
    { PALISADE_ATTEST_ALLOWED_ORIGINS: "example.org" },
  ];
  for (const env of bad) {
    const err = assertThrows(() => parseConfig(env), ConfigError) as ConfigError;
    assertEquals(err.variable, Object.keys(env)[0]);
  }
});

Deno.test("parseConfig() reads the trusted proxies and the login throttle, with their defaults", () => {
  const d = parseConfig({});
  assertEquals(d.trustedProxies, []);
  assertEquals(d.login, {
    windowMs: 86_400_000,
    freeFailures: 5,
    addressFreeFailures: 20,
    backoffMs: 1000,
    backoffMaxMs: 900_000,
    slowdownAfter: 10,
    slowdownStepMs: 200,
    slowdownMaxMs: 2000,
  });
  const c = parseConfig({
    PALISADE_TRUSTED_PROXIES: "127.0.0.1, 10.0.0.0/8,::1",
    PALISADE_LOGIN_USER_FAILURES: "3",
    PALISADE_LOGIN_ADDR_FAILURES: "7",
    PALISADE_LOGIN_SLOWDOWN_MAX_MS: "0",
  }, ["--login-backoff-max-ms", "5000"]);
  assertEquals(c.trustedProxies, ["127.0.0.1", "10.0.0.0/8", "::1"]);
  assertEquals(
    [c.login.freeFailures, c.login.addressFreeFailures, c.login.backoffMaxMs],
    [3, 7, 5000],
  );
  assertEquals(c.login.slowdownMaxMs, 0);
  const bad: Record<string, string>[] = [
    { PALISADE_TRUSTED_PROXIES: "proxy.example.org" },
    { PALISADE_TRUSTED_PROXIES: "10.0.0.0/33" },
    { PALISADE_LOGIN_USER_FAILURES: "0" },
    { PALISADE_LOGIN_WINDOW_MS: "soon" },
    { PALISADE_LOGIN_BACKOFF_MS: "1000000" },
  ];
  for (const env of bad) {
    const err = assertThrows(() => parseConfig(env), ConfigError) as ConfigError;
    assertEquals(err.variable, Object.keys(env)[0]);
  }
});
