import { assertEquals, assertThrows } from "../../tests/assert.ts";
import { ValidationError } from "../errors.ts";
import { inZone, normalizeName } from "./names.ts";

Deno.test("normalizeName() lowercases, drops the trailing dot and refuses malformed labels", () => {
  assertEquals(normalizeName(" WWW.Example.ORG. "), "www.example.org");
  assertEquals(normalizeName("_sip._tcp.example.org"), "_sip._tcp.example.org");
  for (const bad of ["", "a..b", "x".repeat(64) + ".org", "bad label.org"]) {
    assertThrows(() => normalizeName(bad), ValidationError);
  }
});

Deno.test("normalizeName() converts internationalized names but refuses a user, port or path around them", () => {
  assertEquals(normalizeName("München.DE."), "xn--mnchen-3ya.de");
  for (
    const bad of [
      "ü@example.com",
      "münchen.de/evil",
      "münchen.de:53",
      "münchen.de?x",
      "mü nchen.de",
    ]
  ) {
    assertThrows(() => normalizeName(bad), ValidationError, "not a valid internationalized name");
  }
});

Deno.test("inZone() matches the zone and names below it only", () => {
  assertEquals(inZone("example.org", "example.org"), true);
  assertEquals(inZone("www.example.org", "example.org"), true);
  assertEquals(inZone("badexample.org", "example.org"), false);
});
