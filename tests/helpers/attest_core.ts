/**
 * Loads the compiled attestation core for tests, building it first when it is
 * missing or older than its AssemblyScript sources.
 */
import { ensureWasm } from "../../scripts/build_wasm.ts";
import { type AttestCore, loadAttestCore } from "../../wasm/glue.ts";

/** A fresh instance of the core (each call gets its own memory and key). */
export async function loadTestCore(): Promise<AttestCore> {
  const path = await ensureWasm();
  return await loadAttestCore(await Deno.readFile(path));
}
