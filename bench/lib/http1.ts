/**
 * A minimal HTTP/1.1 keep-alive client for load generation: one request at a
 * time per connection, bodies prepared by the caller, responses parsed only
 * as far as status and body. `fetch` costs several times more CPU per
 * request, which on a 2-core machine would be taken from the server under test.
 */
const CRLF2 = new Uint8Array([13, 10, 13, 10]);
const enc = new TextEncoder();
const dec = new TextDecoder();

function indexOf(hay: Uint8Array, needle: Uint8Array, from: number): number {
  outer: for (let i = from; i <= hay.length - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

export interface HttpResponse {
  status: number;
  body: string;
}

export class Http1Connection {
  #buf = new Uint8Array(64 * 1024);
  #len = 0;

  private constructor(private readonly conn: Deno.TcpConn, private readonly host: string) {}

  static async open(hostname: string, port: number): Promise<Http1Connection> {
    const conn = await Deno.connect({ hostname, port });
    conn.setNoDelay(true);
    return new Http1Connection(conn, `${hostname}:${port}`);
  }

  /** Serializes a POST of a JSON body once, to be sent many times or once. */
  static post(host: string, path: string, json: string): Uint8Array {
    const body = enc.encode(json);
    const head = enc.encode(
      `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    const out = new Uint8Array(head.length + body.length);
    out.set(head);
    out.set(body, head.length);
    return out;
  }

  get hostHeader(): string {
    return this.host;
  }

  async #fill(): Promise<void> {
    if (this.#len === this.#buf.length) {
      const bigger = new Uint8Array(this.#buf.length * 2);
      bigger.set(this.#buf);
      this.#buf = bigger;
    }
    const n = await this.conn.read(this.#buf.subarray(this.#len));
    if (n === null) throw new Error("Connection closed by server");
    this.#len += n;
  }

  /** Sends prepared request bytes and reads one response. */
  async request(bytes: Uint8Array): Promise<HttpResponse> {
    await this.#write(bytes);
    return await this.#readResponse();
  }

  /**
   * Pipelines several requests (one write) and reads their responses in
   * order: fewer system calls per request on both sides, as wrk does with a
   * pipelining script.
   */
  async pipeline(requests: Uint8Array[]): Promise<HttpResponse[]> {
    const total = requests.reduce((n, r) => n + r.length, 0);
    const all = new Uint8Array(total);
    let at = 0;
    for (const r of requests) {
      all.set(r, at);
      at += r.length;
    }
    await this.#write(all);
    const out: HttpResponse[] = [];
    for (let i = 0; i < requests.length; i++) out.push(await this.#readResponse());
    return out;
  }

  async #write(bytes: Uint8Array): Promise<void> {
    let off = 0;
    while (off < bytes.length) off += await this.conn.write(bytes.subarray(off));
  }

  async #readResponse(): Promise<HttpResponse> {
    let headEnd: number;
    while ((headEnd = indexOf(this.#buf.subarray(0, this.#len), CRLF2, 0)) < 0) await this.#fill();
    const head = dec.decode(this.#buf.subarray(0, headEnd));
    const status = Number(head.slice(9, 12));
    const m = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    if (!m) throw new Error("Response without Content-Length");
    const total = headEnd + 4 + Number(m[1]);
    while (this.#len < total) await this.#fill();
    const body = dec.decode(this.#buf.subarray(headEnd + 4, total));
    this.#buf.copyWithin(0, total, this.#len);
    this.#len -= total;
    return { status, body };
  }

  close(): void {
    try {
      this.conn.close();
    } catch { /* already closed */ }
  }
}
