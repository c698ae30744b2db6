/**
 * The HTTP listeners survive idle and slowly-sending clients (slowloris,
 * issue 19): 500 connections that send nothing or a request line and a
 * header byte by byte do not keep another client's request from being
 * answered at once.
 */
import { assertEquals } from "../assert.ts";
import { startTestServer } from "../helpers/test_server.ts";

async function holdConnections(base: string, n: number): Promise<Deno.Conn[]> {
  const url = new URL(base);
  const conns: Deno.Conn[] = [];
  for (let i = 0; i < n; i++) {
    const c = await Deno.connect({ hostname: url.hostname, port: Number(url.port) });
    // Every other one starts a request and never finishes its headers.
    if (i % 2) await c.write(new TextEncoder().encode("POST /hb HTTP/1.1\r\nHost: x\r\nX-A: "));
    conns.push(c);
  }
  return conns;
}

Deno.test("500 idle or slowly-sending connections do not keep another client's request from being answered", async () => {
  await using t = await startTestServer();
  for (
    const [what, base, path] of [
      ["admin", t.admin, "/api/v1/system/health"],
      ["attestation", t.attest, "/health"],
      ["DNS API", t.dnsApi, "/api/v1/openapi.json"],
    ] as const
  ) {
    const held = await holdConnections(base, 500);
    try {
      // A trickle keeps the slow ones busy while the real request goes through.
      for (const c of held.filter((_, i) => i % 2).slice(0, 50)) {
        await c.write(new TextEncoder().encode("a")).catch(() => 0);
      }
      const res = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(10_000) });
      assertEquals(res.status, 200, what);
      await res.body?.cancel();
    } finally {
      for (const c of held) {
        try {
          c.close();
        } catch { /* closed by the server */ }
      }
    }
  }
});
