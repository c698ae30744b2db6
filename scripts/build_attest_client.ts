/**
 * Bundles the embeddable attestation script: attest_client/embed.ts (with
 * wasm/glue.ts and lib/attest/canonical.ts) → static/build/palisade-attest.js,
 * minified, as an IIFE so that a classic `<script>` tag can load it without
 * leaking globals. The routes/attest/palisade-attest.js.ts route serves it.
 * Skips the work when the output is newer than every input. Called by
 * scripts/build.ts; the browser tests call it too, so a targeted test run on
 * a clean clone works.
 */

const ROOT = new URL("../", import.meta.url);
/** The bundle served at `/palisade-attest.js` of the attestation listener. */
export const ATTEST_CLIENT_OUTPUT = new URL("static/build/palisade-attest.js", ROOT);
const ENTRY = "attest_client/embed.ts";
const INPUT_DIRS = ["attest_client/"];
const INPUT_FILES = ["wasm/glue.ts", "lib/attest/canonical.ts", "deno.json"];

async function mtime(url: URL): Promise<number> {
  try {
    return (await Deno.stat(url)).mtime?.getTime() ?? 0;
  } catch {
    return 0;
  }
}

async function newestInput(): Promise<number> {
  let newest = await mtime(new URL(import.meta.url));
  for (const f of INPUT_FILES) newest = Math.max(newest, await mtime(new URL(f, ROOT)));
  for (const d of INPUT_DIRS) {
    for await (const e of Deno.readDir(new URL(d, ROOT))) {
      if (e.isFile) newest = Math.max(newest, await mtime(new URL(d + e.name, ROOT)));
    }
  }
  return newest;
}

/** Builds static/build/palisade-attest.js unless it is newer than its inputs (or `force`). */
export async function buildAttestClient(force = false): Promise<void> {
  const out = ATTEST_CLIENT_OUTPUT;
  if (!force && (await mtime(out)) > await newestInput()) return;
  await Deno.mkdir(new URL(".", out), { recursive: true });
  // Bundle to a unique name and rename, so that parallel builds (test files
  // each ensuring the bundle) never serve a half-written file.
  const tmp = out.pathname.replace(/\.js$/, `.${crypto.randomUUID()}.tmp.js`);
  try {
    const { success } = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--quiet",
        "--platform",
        "browser",
        "--format",
        "iife",
        "--minify",
        "-o",
        tmp,
        ENTRY,
      ],
      cwd: ROOT,
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    if (!success) throw new Error("deno bundle of the attestation client failed");
    await Deno.rename(tmp, out);
  } finally {
    await Deno.remove(tmp).catch(() => {});
  }
  console.error(`built static/build/palisade-attest.js (${(await Deno.stat(out)).size} bytes)`);
}

if (import.meta.main) await buildAttestClient(Deno.args.includes("--force"));
