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
  pid: number;
  /** Kills the process at once (SIGKILL), as a crash or a power cut would; the data stays. */
  crash(): Promise<void>;
}

/** CPU seconds (user + system, all threads) a process has used so far, from /proc. */
export function cpuSeconds(pid: number): number {
  const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  // Fields after the command name (which may contain spaces) start after the last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime
  return ticks / 100; // USER_HZ is 100 on Linux
}

export interface ServerProcessOptions {
  /**
   * A data folder prepared by the caller (e.g. a store seeded with peers);
   * a fresh temporary one when absent. Removed on dispose unless `keepData`.
   */
  dataDir?: string;
  keepData?: boolean;
}

/** Starts main.ts and waits for its listener lines. */
export async function startServerProcess(
  env: Record<string, string> = {},
  opts: ServerProcessOptions = {},
): Promise<ServerProcess> {
  const dataDir = opts.dataDir ?? await Deno.makeTempDir({ prefix: "palisade-bench-" });
  const password = "bench-password-0123456789";
  const child = new Deno.Command(Deno.execPath(), {
    // BENCH_SERVER_FLAGS passes extra Deno flags to the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/p".
    args: [
      "run",
      "--allow-all",
      // As `deno task start` runs it: a larger young generation means fewer collections under load.
      "--v8-flags=--max-semi-space-size=32",
      ...(Deno.env.get("BENCH_SERVER_FLAGS")?.split(" ").filter(Boolean) ?? []),
      new URL("../../main.ts", import.meta.url).pathname,
    ],
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
    pid: child.pid,
    async crash() {
      child.kill("SIGKILL");
      await child.status;
    },
    async [Symbol.asyncDispose]() {
      try {
        child.kill("SIGTERM");
      } catch { /* gone */ }
      await child.status;
      if (!opts.keepData) await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    },
  };
}

/** CPU seconds per thread name (from /proc/<pid>/task/*), for finding where a server spends. */
export function cpuByThread(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of Deno.readDirSync(`/proc/${pid}/task`)) {
    try {
      const name = Deno.readTextFileSync(`/proc/${pid}/task/${e.name}/comm`).trim();
      const stat = Deno.readTextFileSync(`/proc/${pid}/task/${e.name}/stat`);
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(name, (out.get(name) ?? 0) + (Number(f[11]) + Number(f[12])) / 100);
    } catch { /* thread ended */ }
  }
  return out;
}
