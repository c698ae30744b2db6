/** A webhook receiver on loopback for the tests: records every request, answers `status`. */
export interface Received {
  headers: Headers;
  body: string;
  at: number;
}

export interface Receiver extends AsyncDisposable {
  url: string;
  requests: Received[];
  /** What it answers from now on (a receiver that comes back healthy). */
  status: number;
  /** Waits (bounded) until `n` requests arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<void>;
}

export function startReceiver(status: number): Receiver {
  const requests: Received[] = [];
  const state = { status };
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req) => {
      requests.push({ headers: req.headers, body: await req.text(), at: Date.now() });
      return new Response(state.status === 200 ? "ok" : "no", { status: state.status });
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}/hook`,
    requests,
    get status() {
      return state.status;
    },
    set status(s: number) {
      state.status = s;
    },
    async waitFor(n, timeoutMs = 10_000) {
      const end = Date.now() + timeoutMs;
      while (requests.length < n) {
        if (Date.now() > end) throw new Error(`Only ${requests.length} of ${n} requests arrived`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}
