/**
 * Requests that reach a listener of this process all at once. A test's fetch()
 * shares the event loop with the listeners it started, so its requests reach
 * them spread over several loop turns: a race between copies of one request
 * is then decided by arrival as often as by the code meant to decide it. Here
 * a worker connects and writes every request while the calling thread, which
 * serves the listeners, is blocked; when it runs again every request is
 * waiting to be read.
 */

export interface RawRequest {
  method: string;
  path: string;
  body?: string;
}

export interface RawResponse {
  status: number;
  body: string;
}

/** What the worker is sent. */
export interface BurstJob {
  hostname: string;
  port: number;
  requests: string[];
  /** Int32Array[2]: [0] becomes 1 once every request is written, [1] 1 when one failed. */
  written: SharedArrayBuffer;
}

/** How long the calling thread may stay blocked while the worker connects and writes. */
const WRITE_TIMEOUT_MS = 10_000;

function encode(base: URL, r: RawRequest): string {
  const body = r.body ?? "";
  return `${r.method} ${r.path} HTTP/1.1\r\nHost: ${base.host}\r\nConnection: close\r\n` +
    `Content-Type: application/json\r\n` +
    `Content-Length: ${new TextEncoder().encode(body).length}\r\n\r\n${body}`;
}

/** Parses a response read to the end of its connection (Connection: close). */
function parse(raw: string): RawResponse {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1]);
  const split = raw.indexOf("\r\n\r\n");
  if (!status || split < 0) throw new Error(`Not an HTTP response: "${raw.slice(0, 80)}"`);
  const head = raw.slice(0, split).toLowerCase();
  let body = raw.slice(split + 4);
  if (head.includes("\r\ntransfer-encoding: chunked")) {
    let out = "";
    for (let at = 0;;) {
      const eol = body.indexOf("\r\n", at);
      const size = parseInt(body.slice(at, eol), 16);
      if (!size) break;
      out += body.slice(eol + 2, eol + 2 + size);
      at = eol + 2 + size + 2;
    }
    body = out;
  }
  return { status, body };
}

/**
 * Sends `requests` to `base` (a listener of this process, http://host:port)
 * so that they all arrive before the listener reads any; resolves with the
 * responses in the same order.
 */
export async function burst(base: string, requests: RawRequest[]): Promise<RawResponse[]> {
  const url = new URL(base);
  const written = new SharedArrayBuffer(8);
  const flags = new Int32Array(written);
  const worker = new Worker(new URL("./burst_worker.ts", import.meta.url), { type: "module" });
  try {
    const ready = new Promise<void>((resolve, reject) => {
      worker.onmessage = () => resolve();
      worker.onerror = (e) => {
        e.preventDefault();
        reject(new Error(e.message));
      };
    });
    await ready;
    const answered = new Promise<string[]>((resolve, reject) => {
      worker.onmessage = (e: MessageEvent<string[]>) => resolve(e.data);
      worker.onerror = (e) => {
        e.preventDefault();
        reject(new Error(e.message));
      };
    });
    // Awaited below unless writing fails first; then its rejection is not the error to report.
    answered.catch(() => {});
    const job: BurstJob = {
      hostname: url.hostname,
      port: Number(url.port),
      requests: requests.map((r) => encode(url, r)),
      written,
    };
    worker.postMessage(job);
    // Blocks this thread, and with it the listeners, until every request is in their sockets.
    if (Atomics.wait(flags, 0, 0, WRITE_TIMEOUT_MS) === "timed-out") {
      throw new Error(`The requests were not written within ${WRITE_TIMEOUT_MS} ms`);
    }
    if (Atomics.load(flags, 1) !== 0) throw new Error("Writing a request failed");
    return (await answered).map(parse);
  } finally {
    worker.terminate();
  }
}
