/**
 * Runs Palisade's main.ts as a separate process on loopback ports chosen by
 * the OS, with a throwaway data folder, for benchmarks that must not share a
 * thread with their load generator.
 */
export interface ServerProcess extends AsyncDisposable {
  admin: string;
  attest: string;
  dnsApi: string;
  dns: string;
  password: string;
  dataDir: string;
}

export interface ServerProcessOptions {
  /**
   * A data folder prepared by the caller (e.g. a store seeded with peers);
   * a fresh temporary one when absent. Removed on dispose either way.
   */
  dataDir?: string;
}

/** Starts main.ts and waits for its listener lines. */
export async function startServerProcess(
  env: Record<string, string> = {},
  opts: ServerProcessOptions = {},
): Promise<ServerProcess> {
  const dataDir = opts.dataDir ?? await Deno.makeTempDir({ prefix: "palisade-bench-" });
  const password = "bench-password-0123456789";
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", new URL("../../main.ts", import.meta.url).pathname],
    env: {
      PALISADE_DATA: dataDir,
      PALISADE_ADMIN_LISTEN: "127.0.0.1:0",
      PALISADE_ATTEST_LISTEN: "127.0.0.1:0",
      PALISADE_DNS_API_LISTEN: "127.0.0.1:0",
      PALISADE_DNS_LISTEN: "127.0.0.1:0",
      PALISADE_ADMIN_PASSWORD: password,
      PALISADE_HOST_DRIVER: "none",
      PALISADE_LOG: "warn",
      NO_COLOR: "1",
      ...env,
    },
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  const deadline = Date.now() + 60_000;
  while (!/dns listening on/.test(out)) {
    if (Date.now() > deadline) throw new Error(`server did not start: ${out}`);
    const { value, done } = await reader.read();
    if (done) throw new Error(`server exited: ${out}`);
    out += value;
  }
  // Keep draining stdout so the child never blocks on a full pipe.
  (async () => {
    try {
      while (!(await reader.read()).done) { /* discard */ }
    } catch { /* closed */ }
  })();
  const addr = (name: string) =>
    new RegExp(`${name} listening on (?:http://)?(\\S+)`).exec(out)![1];
  return {
    admin: `http://${addr("admin")}`,
    attest: `http://${addr("attestation")}`,
    dnsApi: `http://${addr("dns-api")}`,
    dns: addr("dns"),
    password,
    dataDir,
    async [Symbol.asyncDispose]() {
      try {
        child.kill("SIGTERM");
      } catch { /* gone */ }
      await child.status;
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    },
  };
}
