import { assertEquals } from "../../tests/assert.ts";
import { ResponseHeaders } from "./response_headers.ts";

const BASE: [string, string][] = [
  ["Content-Type", "application/json"],
  ["Cache-Control", "no-store"],
];

Deno.test("ResponseHeaders: set replaces by case-insensitive name, append keeps earlier values", () => {
  const h = new ResponseHeaders();
  h.set("Vary", "Origin");
  h.set("vary", "Accept");
  h.append("Set-Cookie", "a=1");
  h.append("set-cookie", "b=2");
  assertEquals(h.pairs, [["vary", "Accept"], ["Set-Cookie", "a=1"], ["set-cookie", "b=2"]]);
  assertEquals(h.has("SET-COOKIE"), true);
  assertEquals(h.has("VARY"), true);
  h.delete("VARY");
  assertEquals(h.has("vary"), false);
  assertEquals(h.pairs, [["Set-Cookie", "a=1"], ["set-cookie", "b=2"]]);
});

Deno.test("ResponseHeaders.over(): replaces base entries, then adds defaults nobody set", () => {
  const h = new ResponseHeaders();
  h.set("content-type", "text/plain");
  h.setDefault("Cache-Control", "private");
  h.setDefault("X-Default", "1");
  assertEquals(h.over(BASE), [
    ["Cache-Control", "no-store"],
    ["content-type", "text/plain"],
    ["X-Default", "1"],
  ]);
  // The base itself is never changed.
  assertEquals(BASE.length, 2);
});
