/**
 * Runs bench/lib/loadgen.c (compiled on first use with the system's C
 * compiler) over a batch of prepared requests: responses come back in
 * request order with their latencies, and the generator's own CPU time is
 * reported so the bench can show what it took from the shared machine.
 */
const SOURCE = new URL("./loadgen.c", import.meta.url);
const BINARY = new URL("../../.cache/loadgen", import.meta.url);
const enc = new TextEncoder();
const dec = new TextDecoder();

export interface LoadResult {
  responses: { status: number; latencyMs: number; body: string }[];
  elapsedMs: number;
  cpuMs: number;
}

/** Compiles the generator when the binary is missing or older than its source. */
export async function buildLoadgen(): Promise<string> {
  const src = await Deno.stat(SOURCE);
  const bin = await Deno.stat(BINARY).catch(() => null);
  if (bin && bin.mtime! >= src.mtime!) return BINARY.pathname;
  await Deno.mkdir(new URL(".", BINARY), { recursive: true });
  for (const cc of ["cc", "gcc", "clang"]) {
    const out = await new Deno.Command(cc, {
      args: ["-O2", "-o", BINARY.pathname, SOURCE.pathname],
      stderr: "piped",
    }).output().catch(() => null);
    if (out?.success) return BINARY.pathname;
    if (out) throw new Error(`${cc} failed on loadgen.c: ${dec.decode(out.stderr)}`);
  }
  throw new Error("No C compiler (cc, gcc or clang) to build bench/lib/loadgen.c");
}

/** An HTTP/1.1 POST of a JSON body, as bytes. */
export function postRequest(host: string, path: string, json: string): Uint8Array {
  return enc.encode(
    `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${
      enc.encode(json).length
    }\r\n\r\n${json}`,
  );
}

/** Sends `requests` over `connections` keep-alive connections to host:port. */
export async function runLoad(
  binary: string,
  hostname: string,
  port: number,
  connections: number,
  requests: Uint8Array[],
): Promise<LoadResult> {
  const dir = await Deno.makeTempDir({ prefix: "palisade-loadgen-" });
  try {
    const total = requests.reduce((n, r) => n + 4 + r.length, 0);
    const file = new Uint8Array(total);
    const view = new DataView(file.buffer);
    let at = 0;
    for (const r of requests) {
      view.setUint32(at, r.length, true);
      file.set(r, at + 4);
      at += 4 + r.length;
    }
    await Deno.writeFile(`${dir}/requests`, file);
    const out = await new Deno.Command(binary, {
      args: [hostname, String(port), String(connections), `${dir}/requests`, `${dir}/responses`],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) throw new Error(`loadgen failed: ${dec.decode(out.stderr)}`);
    const summary = JSON.parse(dec.decode(out.stdout));
    const bytes = await Deno.readFile(`${dir}/responses`);
    const rv = new DataView(bytes.buffer);
    const responses: LoadResult["responses"] = [];
    for (let p = 0; p < bytes.length;) {
      const len = rv.getUint32(p + 8, true);
      responses.push({
        status: rv.getUint32(p, true),
        latencyMs: rv.getUint32(p + 4, true) / 1000,
        body: dec.decode(bytes.subarray(p + 12, p + 12 + len)),
      });
      p += 12 + len;
    }
    return { responses, elapsedMs: summary.elapsed_ms, cpuMs: summary.cpu_ms };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
