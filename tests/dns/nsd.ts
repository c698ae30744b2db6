/**
 * Runs NSD on loopback as the test oracle: a secondary that transfers from
 * Palisade, or (for the benchmark) a primary serving a zone file. Config,
 * zone files and state live in a temp dir; the process is a child of the
 * test and is killed on dispose.
 */
import { acceptsTcp, freeDualPort } from "../helpers/ports.ts";
import { which } from "../helpers/system.ts";

export interface NsdZone {
  name: string;
  /** Zone file text (primary), or omitted for a secondary. */
  text?: string;
  /** Secondary: the primary "ip@port" to transfer from and accept NOTIFY from. */
  primary?: { ip: string; port: number };
  /** Secondary: the TSIG key its transfers and the primary's NOTIFY are signed with. */
  key?: { name: string; algorithm: string; secret: string };
}

export interface Nsd extends AsyncDisposable {
  port: number;
  dir: string;
  log(): Promise<string>;
}

/** Starts `nsd -d` with `zones`; resolves once it answers on its port. */
export async function startNsd(
  zones: NsdZone[],
  opts: { minimalResponses?: boolean; provideXfr?: string[] } = {},
): Promise<Nsd> {
  const dir = await Deno.makeTempDir({ prefix: "palisade-nsd-" });
  const port = freeDualPort();
  const lines = [
    "server:",
    "  ip-address: 127.0.0.1",
    `  port: ${port}`,
    "  do-ip6: no",
    `  zonesdir: "${dir}"`,
    `  pidfile: "${dir}/nsd.pid"`,
    `  xfrdfile: "${dir}/xfrd.state"`,
    `  zonelistfile: "${dir}/zone.list"`,
    `  xfrdir: "${dir}"`,
    `  logfile: "${dir}/nsd.log"`,
    '  database: ""',
    '  username: ""',
    '  chroot: ""',
    "  server-count: 1",
    "  verbosity: 2",
    "  rrl-ratelimit: 0",
    "  rrl-whitelist-ratelimit: 0",
    `  minimal-responses: ${opts.minimalResponses === false ? "no" : "yes"}`,
    "remote-control:",
    "  control-enable: no",
  ];
  for (const z of zones) {
    if (z.key) {
      lines.push("key:", `  name: "${z.key.name}"`, `  algorithm: ${z.key.algorithm}`);
      lines.push(`  secret: "${z.key.secret}"`);
    }
    lines.push("zone:", `  name: "${z.name}"`, `  zonefile: "${z.name}.zone"`);
    if (z.text !== undefined) await Deno.writeTextFile(`${dir}/${z.name}.zone`, z.text);
    for (const ip of opts.provideXfr ?? []) lines.push(`  provide-xfr: ${ip} NOKEY`);
    if (z.primary) {
      const key = z.key?.name ?? "NOKEY";
      lines.push(
        `  request-xfr: ${z.primary.ip}@${z.primary.port} ${key}`,
        `  allow-notify: ${z.primary.ip} ${key}`,
      );
    }
  }
  await Deno.writeTextFile(`${dir}/nsd.conf`, lines.join("\n") + "\n");
  const child = new Deno.Command(which("nsd") ?? "nsd", {
    args: ["-d", "-c", `${dir}/nsd.conf`],
    stdout: "null",
    stderr: "piped",
    stdin: "null",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const log = async () => {
    try {
      return await Deno.readTextFile(`${dir}/nsd.log`);
    } catch {
      return "";
    }
  };
  // Ready when the TCP port accepts (bounded: 10 s).
  const ready = await acceptsTcp(port);
  const dispose = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    await child.status;
    await stderr;
    await Deno.remove(dir, { recursive: true });
  };
  if (!ready) {
    const why = (await log()) + (await Promise.race([stderr, Promise.resolve("")]));
    await dispose();
    throw new Error(`NSD did not start: ${why}`);
  }
  return { port, dir, log, [Symbol.asyncDispose]: dispose };
}
