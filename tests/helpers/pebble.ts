/**
 * Let's Encrypt's test ACME server, pebble (Debian `pebble`), for ACME client
 * system tests: on free loopback ports, with a TLS certificate of its own
 * made with openssl in a temp dir (Debian ships none), and its DNS-01
 * resolver pointed at Palisade's DNS listener, so a challenge is validated
 * by asking Palisade. Killed and its dir removed on dispose.
 */
import { freePort } from "./ports.ts";
import { run, which } from "./system.ts";
import { waitFor } from "./wait.ts";

/** The tools `startPebble` needs (for `haveSystem`). */
export const PEBBLE_TOOLS = ["pebble", "openssl"];

export interface Pebble extends AsyncDisposable {
  /** The ACME directory URL, `https://127.0.0.1:<port>/dir`. */
  directory: string;
  /** PEM file of the CA that signed pebble's TLS certificate: what ACME clients must trust. */
  caFile: string;
  /** The temp dir (config, TLS material, nothing else). */
  dir: string;
  /** PEM of the intermediate that signs issued certificates (regenerated at each start). */
  intermediate(): Promise<string>;
  /** PEM of the root above that intermediate. */
  root(): Promise<string>;
  /** What pebble printed so far (requests, validation outcomes). */
  log(): string;
}

/** Makes a throwaway CA and a certificate for 127.0.0.1 and localhost signed by it, in `dir`. */
async function tlsMaterial(dir: string): Promise<{ ca: string; cert: string; key: string }> {
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"];
  await run("openssl", [
    "req",
    "-x509",
    ...ec,
    "-keyout",
    `${dir}/ca.key`,
    "-out",
    `${dir}/ca.pem`,
    "-days",
    "2",
    "-subj",
    "/CN=palisade test pebble TLS CA",
  ]);
  await run("openssl", [
    "req",
    ...ec,
    "-keyout",
    `${dir}/key.pem`,
    "-out",
    `${dir}/cert.csr`,
    "-subj",
    "/CN=localhost",
  ]);
  await Deno.writeTextFile(`${dir}/ext.cnf`, "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
  await run("openssl", [
    "x509",
    "-req",
    "-in",
    `${dir}/cert.csr`,
    "-CA",
    `${dir}/ca.pem`,
    "-CAkey",
    `${dir}/ca.key`,
    "-CAcreateserial",
    "-days",
    "2",
    "-extfile",
    `${dir}/ext.cnf`,
    "-out",
    `${dir}/cert.pem`,
  ]);
  return { ca: `${dir}/ca.pem`, cert: `${dir}/cert.pem`, key: `${dir}/key.pem` };
}

/** Collects a child's output stream into `sink` as it comes (the pipe never fills). */
async function drain(stream: ReadableStream<Uint8Array>, sink: string[]): Promise<void> {
  const dec = new TextDecoder();
  for await (const chunk of stream) sink.push(dec.decode(chunk, { stream: true }));
}

/**
 * Starts pebble whose DNS-01 checks query `dnsPort` on 127.0.0.1. Without
 * random validation sleeps, nonce rejections or authorization reuse: every
 * order is validated at once, through Palisade.
 */
export async function startPebble(opts: { dnsPort: number }): Promise<Pebble> {
  const dir = await Deno.makeTempDir({ prefix: "palisade-pebble-" });
  const tls = await tlsMaterial(dir);
  const port = freePort();
  const mgmt = freePort();
  await Deno.writeTextFile(
    `${dir}/pebble.json`,
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${port}`,
        managementListenAddress: `127.0.0.1:${mgmt}`,
        certificate: tls.cert,
        privateKey: tls.key,
        // http-01 and tls-alpn-01 are not used; free ports so nothing collides.
        httpPort: freePort(),
        tlsPort: freePort(),
        ocspResponderURL: "",
        externalAccountBindingRequired: false,
      },
    }),
  );
  const child = new Deno.Command(which("pebble") ?? "pebble", {
    args: ["-config", `${dir}/pebble.json`, "-dnsserver", `127.0.0.1:${opts.dnsPort}`],
    env: { PEBBLE_VA_NOSLEEP: "1", PEBBLE_WFE_NONCEREJECT: "0", PEBBLE_AUTHZREUSE: "0" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const out: string[] = [];
  const pumps = Promise.all([drain(child.stdout, out), drain(child.stderr, out)]);
  const client = Deno.createHttpClient({ caCerts: [await Deno.readTextFile(tls.ca)] });
  const get = async (url: string) => {
    const res = await fetch(url, { client });
    const text = await res.text();
    if (!res.ok) throw new Error(`pebble answered ${res.status} to "${url}": ${text}`);
    return text;
  };
  const directory = `https://127.0.0.1:${port}/dir`;
  let exited = false;
  child.status.then(() => exited = true);
  const dispose = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    await child.status;
    await pumps;
    client.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  };
  // Ready when the directory answers over TLS with our CA (bounded: 15 s).
  const ready = await waitFor(
    async () => {
      if (exited) return true;
      try {
        await get(directory);
        return true;
      } catch {
        return false;
      }
    },
    15_000,
    100,
  );
  if (!ready || exited) {
    await dispose();
    throw new Error(`pebble did not start: ${out.join("")}`);
  }
  return {
    directory,
    caFile: tls.ca,
    dir,
    intermediate: () => get(`https://127.0.0.1:${mgmt}/intermediates/0`),
    root: () => get(`https://127.0.0.1:${mgmt}/roots/0`),
    log: () => out.join(""),
    [Symbol.asyncDispose]: dispose,
  };
}
