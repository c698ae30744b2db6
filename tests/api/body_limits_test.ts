/**
 * Request bodies have a size limit per route (issue 19): routes whose bodies
 * are small by nature refuse a larger one with 413 before reading it, on
 * every listener, whether the length is declared or streamed.
 */
import { assertEquals } from "../assert.ts";
import { startTestServer } from "../helpers/test_server.ts";

function streamOf(text: string): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(c) {
      c.enqueue(new TextEncoder().encode(text));
      c.close();
    },
  });
}

Deno.test("small-bodied routes refuse a body over their own limit with 413, declared or streamed", async () => {
  await using t = await startTestServer();
  const over = (limit: number) => JSON.stringify({ pad: "x".repeat(limit) });
  const cases: [string, string, number][] = [
    ["attestation /init", `${t.attest}/init`, 4 * 1024],
    ["attestation /hb", `${t.attest}/hb`, 256 * 1024],
    ["admin login", `${t.admin}/api/v1/auth/login`, 16 * 1024],
    ["DNS API login", `${t.dnsApi}/api/v1/auth/login`, 16 * 1024],
  ];
  for (const [what, url, limit] of cases) {
    for (const body of [over(limit), streamOf(over(limit))]) {
      const res = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: new URL(url).origin },
        body,
      });
      const json = await res.json();
      assertEquals([res.status, json.status], [413, 413], what);
      assertEquals(json.error, `Request body is larger than ${limit} bytes`, what);
    }
  }
  // A body under its limit is read and validated as usual.
  const res = await fetch(`${t.attest}/init`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ public_key: "zz".repeat(32) }),
  });
  assertEquals(res.status, 500, "an invalid key is the spec's init failure, not a 413");
  await res.body?.cancel();
});
