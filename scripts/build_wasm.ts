/**
 * Builds the attestation core: wasm/assembly/index.ts → wasm/build/attest.wasm
 * with the AssemblyScript compiler (npm, works offline once cached).
 * `deno run -A scripts/build_wasm.ts` builds it directly; scripts/build.ts
 * calls buildWasm(); tests call ensureWasm(), which builds only when the
 * output is missing or older than its sources.
 */
import asc from "assemblyscript/asc";
import { fileURLToPath } from "node:url";

const ROOT = new URL("../", import.meta.url);
/** Source directory of the AssemblyScript code. */
export const WASM_SOURCE_DIR = new URL("wasm/assembly/", ROOT);
/** The compiled module. */
export const WASM_OUTPUT = new URL("wasm/build/attest.wasm", ROOT);
/** Hard limit on the module size; the build fails above it. */
export const WASM_SIZE_LIMIT = 64 * 1024;

// -O3 for speed (signing is the hot path); the stub runtime because the core
// never frees memory (all working memory is static); abort kept as an import
// so a compiler-inserted trap surfaces as a JS error rather than a silent
// unreachable.
const ASC_FLAGS = ["-O3", "--runtime", "stub", "--noAssert"];

/** Options of buildWasm(). */
export interface BuildWasmOptions {
  /** Suppress the size line on stdout. */
  quiet?: boolean;
}

/** Compiles the attestation core to wasm/build/attest.wasm and prints its size. */
export async function buildWasm(options: BuildWasmOptions = {}): Promise<void> {
  const entry = fileURLToPath(new URL("index.ts", WASM_SOURCE_DIR));
  const output = fileURLToPath(WASM_OUTPUT);
  await Deno.mkdir(new URL(".", WASM_OUTPUT), { recursive: true });
  // Compile to a unique name and rename, so concurrent builds (parallel test
  // files) never expose a half-written module.
  const tmp = output.replace(/\.wasm$/, `.${crypto.randomUUID()}.wasm`);
  let stderr = "";
  const sink = (append: (s: string) => void) => ({
    write(chunk: Uint8Array | string) {
      append(typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk));
      return true;
    },
  });
  try {
    const { error } = await asc.main([entry, "-o", tmp, ...ASC_FLAGS], {
      stdout: sink(() => {}),
      stderr: sink((s) => stderr += s),
    });
    if (error) throw new Error(`AssemblyScript build failed: ${error.message}\n${stderr}`);
    const size = (await Deno.stat(tmp)).size;
    if (size > WASM_SIZE_LIMIT) {
      throw new Error(`Attestation core is ${size} bytes, over the ${WASM_SIZE_LIMIT}-byte limit`);
    }
    await Deno.rename(tmp, output);
    if (!options.quiet) console.log(`wasm/build/attest.wasm: ${size} bytes`);
  } finally {
    await Deno.remove(tmp).catch(() => {});
  }
}

async function newestSourceMtime(): Promise<number> {
  let newest = (await Deno.stat(new URL(import.meta.url))).mtime?.getTime() ?? 0;
  for await (const entry of Deno.readDir(WASM_SOURCE_DIR)) {
    if (!entry.isFile) continue;
    const m = (await Deno.stat(new URL(entry.name, WASM_SOURCE_DIR))).mtime?.getTime() ?? 0;
    if (m > newest) newest = m;
  }
  return newest;
}

/** Builds the module when it is missing or older than a source; returns its path. */
export async function ensureWasm(): Promise<string> {
  const output = fileURLToPath(WASM_OUTPUT);
  const built = await Deno.stat(output).then((s) => s.mtime?.getTime() ?? 0, () => 0);
  if (built === 0 || built < await newestSourceMtime()) await buildWasm({ quiet: true });
  return output;
}

if (import.meta.main) {
  await buildWasm();
}
