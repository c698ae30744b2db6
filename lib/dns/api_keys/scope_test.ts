import { assertEquals } from "../../../tests/assert.ts";
import { acmeScope, type KeyScope, namePatternMatches, scopeAllows } from "./scope.ts";

Deno.test("name patterns: a * label takes one or more whole labels, case and final dot ignored", () => {
  const cases: [string, string, boolean][] = [
    ["_acme-challenge.*", "_acme-challenge.example.org", true],
    ["_acme-challenge.*", "_ACME-challenge.www.example.org.", true],
    ["_acme-challenge.*", "_acme-challenge", false],
    ["_acme-challenge.*", "x._acme-challenge.example.org", false],
    ["*.example.org", "a.example.org", true],
    ["*.example.org", "a.b.example.org", true],
    ["*.example.org", "example.org", false],
    ["www.example.org", "www.example.org", true],
    ["www.example.org", "www.example.net", false],
    ["a.*.org", "a.b.c.org", true],
  ];
  for (const [p, n, want] of cases) assertEquals(namePatternMatches(p, n), want, `${p} ~ ${n}`);
});

Deno.test("scope: zone, type, name and access each refuse what they leave out", () => {
  const acme = acmeScope(["example.org"]);
  const txt = (name: string, zone = "example.org") => ({
    access: "write" as const,
    zone,
    type: "TXT",
    name,
  });
  assertEquals(scopeAllows(acme, txt("_acme-challenge.example.org")), true);
  assertEquals(scopeAllows(acme, txt("_acme-challenge.example.net", "example.net")), false);
  assertEquals(scopeAllows(acme, txt("www.example.org")), false);
  assertEquals(scopeAllows(acme, { ...txt("_acme-challenge.example.org"), type: "A" }), false);
  assertEquals(scopeAllows(acme, { access: "write", zone: "example.org" }), false, "zone itself");
  assertEquals(scopeAllows(acme, { access: "read", zone: "example.org" }), true);
  assertEquals(
    scopeAllows(acme, { access: "read", zone: "example.org", allRecords: true }),
    false,
    "listing every record",
  );
  assertEquals(scopeAllows(acme, { access: "write" }), false, "creating zones");
  const reader: KeyScope = { zones: "*", types: "*", names: "*", access: "read" };
  assertEquals(scopeAllows(reader, { access: "read" }), true);
  assertEquals(scopeAllows(reader, { access: "read", zone: "a.org", allRecords: true }), true);
  assertEquals(scopeAllows(reader, txt("_acme-challenge.example.org")), false);
  const all: KeyScope = { ...reader, access: "write" };
  assertEquals(scopeAllows(all, { access: "write" }), true);
  assertEquals(scopeAllows(all, { access: "write", zone: "example.org" }), true);
});
