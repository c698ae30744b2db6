/**
 * Builds what the server loads or serves but does not import: the
 * attestation core (wasm/build/attest.wasm) and the islands bundle
 * (`deno bundle`, minified) into static/build/. Skips work whose inputs have
 * not changed since the last build. Run by `deno task start` and `deno task test`.
 */
import { ensureWasm } from "./build_wasm.ts";

const ROOT = new URL("../", import.meta.url);
const OUT = new URL("static/build/", ROOT);

async function newestMtime(dir: URL): Promise<number> {
  let newest = 0;
  for await (const e of Deno.readDir(dir)) {
    const url = new URL(e.name + (e.isDirectory ? "/" : ""), dir);
    if (e.isDirectory) newest = Math.max(newest, await newestMtime(url));
    else newest = Math.max(newest, (await Deno.stat(url)).mtime?.getTime() ?? 0);
  }
  return newest;
}

async function mtime(url: URL): Promise<number> {
  try {
    return (await Deno.stat(url)).mtime?.getTime() ?? 0;
  } catch {
    return 0;
  }
}

/** Bundles `islands/_client.gen.ts` into `static/build/islands.js`. */
export async function buildIslands(force = false): Promise<void> {
  const out = new URL("islands.js", OUT);
  const inputs = Math.max(
    await newestMtime(new URL("islands/", ROOT)),
    await mtime(new URL("deno.json", ROOT)),
  );
  if (!force && (await mtime(out)) > inputs) return;
  await Deno.mkdir(OUT, { recursive: true });
  const cmd = new Deno.Command(Deno.execPath(), {
    args: [
      "bundle",
      "--quiet",
      "--platform",
      "browser",
      "--minify",
      "-o",
      out.pathname,
      "islands/_client.gen.ts",
    ],
    cwd: ROOT,
    stdout: "inherit",
    stderr: "inherit",
  });
  const { success } = await cmd.output();
  if (!success) throw new Error("deno bundle of the islands failed");
  console.error(`built static/build/islands.js (${(await Deno.stat(out)).size} bytes)`);
}

if (import.meta.main) {
  const force = Deno.args.includes("--force");
  await ensureWasm();
  await buildIslands(force);
  await (await import("./build_attest_client.ts")).buildAttestClient(force);
}
