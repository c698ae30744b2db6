/**
 * Runs the PowerDNS Authoritative Server (Debian `pdns-server` with
 * `pdns-backend-sqlite3`) on loopback as the oracle of the PowerDNS API
 * differential test: its own config dir in a temp folder, a gsqlite3
 * database made from the package's schema, the webserver and API on a free
 * port with `api-key`, DNS on another. Killed and removed on dispose.
 */
import { DatabaseSync } from "node:sqlite";
import { acceptsTcp, freeDualPort, freePort } from "../helpers/ports.ts";
import { which } from "../helpers/system.ts";

/** Where Debian puts the gsqlite3 schema (the doc copy may be left out of slim images). */
const SCHEMAS = [
  "/usr/share/pdns-backend-sqlite3/schema/schema.sqlite3.sql",
  "/usr/share/doc/pdns-backend-sqlite3/schema.sqlite3.sql",
];

export interface Pdns extends AsyncDisposable {
  /** Base URL of the webserver (the API is under /api/v1). */
  api: string;
  dnsPort: number;
}

async function schema(): Promise<string> {
  for (const path of SCHEMAS) {
    try {
      return await Deno.readTextFile(path);
    } catch { /* try the next place */ }
  }
  throw new Error(`No gsqlite3 schema found in ${SCHEMAS.join(", ")}`);
}

/** Starts `pdns_server` with `apiKey`; resolves once both its ports accept. */
export async function startPdns(apiKey: string): Promise<Pdns> {
  const dir = await Deno.makeTempDir({ prefix: "palisade-pdns-" });
  const db = new DatabaseSync(`${dir}/pdns.sqlite3`);
  db.exec(await schema());
  db.close();
  const webPort = freePort();
  const dnsPort = freeDualPort();
  const conf = [
    "launch=gsqlite3",
    `gsqlite3-database=${dir}/pdns.sqlite3`,
    "local-address=127.0.0.1",
    `local-port=${dnsPort}`,
    "webserver=yes",
    "webserver-address=127.0.0.1",
    `webserver-port=${webPort}`,
    "webserver-allow-from=127.0.0.0/8",
    "api=yes",
    `api-key=${apiKey}`,
    `socket-dir=${dir}`,
    "guardian=no",
    "daemon=no",
    "disable-syslog=yes",
    // Answers follow API changes at once, as Palisade's do.
    "cache-ttl=0",
    "negquery-cache-ttl=0",
    "query-cache-ttl=0",
    "zone-cache-refresh-interval=0",
    "security-poll-suffix=",
  ];
  await Deno.writeTextFile(`${dir}/pdns.conf`, conf.join("\n") + "\n");
  const child = new Deno.Command(which("pdns_server") ?? "pdns_server", {
    args: [`--config-dir=${dir}`],
    stdout: "null",
    stderr: "piped",
    stdin: "null",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const ready = await acceptsTcp(webPort) && await acceptsTcp(dnsPort);
  const dispose = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    await child.status;
    await stderr;
    await Deno.remove(dir, { recursive: true });
  };
  if (!ready) {
    const why = await Promise.race([stderr, Promise.resolve("")]);
    await dispose();
    throw new Error(`PowerDNS did not start: ${why}`);
  }
  return { api: `http://127.0.0.1:${webPort}`, dnsPort, [Symbol.asyncDispose]: dispose };
}
