/**
 * Runs Knot DNS (`knotd`) on loopback as a test oracle: a primary serving
 * zone files, configured as an operator would (default answering, no rate
 * limiting module, no DNSSEC signing), or a secondary transferring a zone
 * from a primary and accepting its NOTIFY. Config, zone files, journal and
 * control socket live in a temp dir; the process is a child of the test and
 * is killed on dispose.
 */
import { acceptsTcp, freeDualPort } from "../helpers/ports.ts";
import { which } from "../helpers/system.ts";

export interface KnotZone {
  name: string;
  /** Zone file text (primary), or omitted for a secondary. */
  text?: string;
  /** Secondary: the primary "ip@port" to transfer from and accept NOTIFY from. */
  primary?: { ip: string; port: number };
}

export interface Knot extends AsyncDisposable {
  port: number;
  dir: string;
  /** What knotd wrote to stderr so far (its log goes there). */
  log(): string;
}

function config(dir: string, port: number, zones: KnotZone[], xfr: string[]): string {
  const lines = [
    "server:",
    `  listen: 127.0.0.1@${port}`,
    `  rundir: "${dir}"`,
    "  udp-workers: 1",
    "  tcp-workers: 1",
    "  background-workers: 1",
    "log:",
    "  - target: stderr",
    "    any: info",
    "database:",
    `  storage: "${dir}"`,
    "control:",
    `  listen: "${dir}/knot.sock"`,
    ...remotes(zones),
    ...(xfr.length || zones.some((z) => z.primary) ? ["acl:"] : []),
    ...(xfr.length
      ? ["  - id: xfr", `    address: [${xfr.join(", ")}]`, "    action: transfer"]
      : []),
    ...zones.flatMap((z, i) =>
      z.primary ? [`  - id: notify${i}`, `    address: ${z.primary.ip}`, "    action: notify"] : []
    ),
    "template:",
    "  - id: default",
    `    storage: "${dir}"`,
    '    file: "%s.zone"',
    // Serve the files as written: no journal, never write the files back.
    "    journal-content: none",
    "    zonefile-sync: -1",
    ...(xfr.length ? ["    acl: xfr"] : []),
    "zone:",
  ];
  zones.forEach((z, i) => {
    lines.push(`  - domain: "${z.name}"`);
    if (z.primary) lines.push(`    master: primary${i}`, `    acl: notify${i}`);
  });
  return lines.join("\n") + "\n";
}

/** The primaries of secondary zones (Knot 3.2 names them `master`). */
function remotes(zones: KnotZone[]): string[] {
  const out = zones.flatMap((z, i) =>
    z.primary ? [`  - id: primary${i}`, `    address: ${z.primary.ip}@${z.primary.port}`] : []
  );
  return out.length ? ["remote:", ...out] : [];
}

/** Starts `knotd` with `zones` (transfers allowed to `provideXfr`); resolves once it answers on its port (zones may still be loading). */
export async function startKnot(
  zones: KnotZone[],
  opts: { provideXfr?: string[] } = {},
): Promise<Knot> {
  const dir = await Deno.makeTempDir({ prefix: "palisade-knot-" });
  const port = freeDualPort();
  for (const z of zones) {
    if (z.text !== undefined) await Deno.writeTextFile(`${dir}/${z.name}.zone`, z.text);
  }
  await Deno.writeTextFile(`${dir}/knot.conf`, config(dir, port, zones, opts.provideXfr ?? []));
  const child = new Deno.Command(which("knotd") ?? "knotd", {
    args: ["-c", `${dir}/knot.conf`],
    stdout: "null",
    stderr: "piped",
    stdin: "null",
  }).spawn();
  let logText = "";
  const decoder = new TextDecoder();
  const drained = (async () => {
    for await (const chunk of child.stderr) logText += decoder.decode(chunk, { stream: true });
  })();
  // Ready when the TCP port accepts (bounded: 10 s).
  const ready = await acceptsTcp(port);
  const dispose = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    await child.status;
    await drained;
    await Deno.remove(dir, { recursive: true });
  };
  if (!ready) {
    await dispose();
    throw new Error(`Knot did not start: ${logText}`);
  }
  return { port, dir, log: () => logText, [Symbol.asyncDispose]: dispose };
}
