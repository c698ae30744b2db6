import { assertEquals } from "../../../tests/assert.ts";
import { requestPath } from "./exact_paths.ts";

Deno.test("requestPath() equals new URL().pathname, or defers to the URL parser with an empty string", () => {
  const urls = [
    "http://127.0.0.1:8080/hb",
    "http://127.0.0.1:8080/",
    "http://127.0.0.1:8080",
    "http://[::1]:8080/init?x=1",
    "http://h/init#frag",
    "http://h/api/v1/peers/abc/qr.png",
    "http://h//hb",
    "http://h/hb/",
    "http://h/.hidden",
    "http://h/a/./hb",
    "http://h/a/../hb",
    "http://h/%2e%2e/hb",
    "http://h/%68b",
    "http://h/a\\..\\hb",
    "http://h/h b",
    "http://h/h\u00e9",
    "http://h/a/..",
    "http://h/.",
  ];
  let deferred = 0;
  for (const url of urls) {
    const path = requestPath(url);
    if (path === "") deferred++;
    else assertEquals(path, new URL(url).pathname, url);
  }
  // Every input with a dot segment, an escape, a backslash or a non-ASCII byte is left to the parser.
  assertEquals(deferred, 10);
});
