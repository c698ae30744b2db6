/**
 * The worker of tests/helpers/burst.ts: connects and writes every request,
 * says so through shared memory (the thread that sent the job is blocked
 * until then), then reads each response to the end of its connection.
 */
import type { BurstJob } from "./burst.ts";

/// <reference lib="deno.worker" />

self.onmessage = async ({ data }: MessageEvent<BurstJob>) => {
  const flags = new Int32Array(data.written);
  const conns: Deno.TcpConn[] = [];
  try {
    for (const request of data.requests) {
      const conn = await Deno.connect({ hostname: data.hostname, port: data.port });
      conns.push(conn);
      const bytes = new TextEncoder().encode(request);
      for (let at = 0; at < bytes.length;) at += await conn.write(bytes.subarray(at));
    }
  } catch (err) {
    Atomics.store(flags, 1, 1);
    throw err;
  } finally {
    Atomics.store(flags, 0, 1);
    Atomics.notify(flags, 0);
  }
  const decoder = new TextDecoder();
  self.postMessage(
    await Promise.all(
      conns.map(async (c) => decoder.decode(await new Response(c.readable).arrayBuffer())),
    ),
  );
};

self.postMessage("ready");
