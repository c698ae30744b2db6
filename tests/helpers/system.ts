/**
 * Gates for tests that need system tools or root. Without the tool the test
 * prints `SKIP <name>: <tool> not installed` and passes; with
 * `PALISADE_REQUIRE_SYSTEM_TESTS=1` (set by `.ci/run`) a missing tool fails.
 */
import { HostError } from "../../lib/errors.ts";
import { command, type CommandOptions, type CommandResult } from "../../lib/host/command.ts";

const found = new Map<string, string | null>();

/** Absolute path of `tool` on PATH, or null. */
export function which(tool: string): string | null {
  if (found.has(tool)) return found.get(tool)!;
  let hit: string | null = null;
  for (const dir of (Deno.env.get("PATH") ?? "").split(":").concat(["/usr/sbin", "/sbin"])) {
    try {
      const path = `${dir}/${tool}`;
      const st = Deno.statSync(path);
      if (st.isFile && (st.mode ?? 0) & 0o111) {
        hit = path;
        break;
      }
    } catch { /* not here */ }
  }
  found.set(tool, hit);
  return hit;
}

export function systemTestsRequired(): boolean {
  return Deno.env.get("PALISADE_REQUIRE_SYSTEM_TESTS") === "1";
}

export function isRoot(): boolean {
  return Deno.uid() === 0;
}

/**
 * Returns true when every tool is present (and root, if asked). Otherwise
 * prints the SKIP line and returns false, or throws when system tests are
 * required.
 */
export function haveSystem(
  testName: string,
  tools: string[],
  opts: { root?: boolean } = {},
): boolean {
  const missing = tools.filter((t) => !which(t));
  let reason = missing.length ? `${missing.join(", ")} not installed` : "";
  if (!reason && opts.root && !isRoot()) reason = "needs root";
  if (!reason) return true;
  if (systemTestsRequired()) {
    throw new Error(`${testName}: ${reason} (PALISADE_REQUIRE_SYSTEM_TESTS=1)`);
  }
  console.log(`SKIP ${testName}: ${reason}`);
  return false;
}

const runner = command();

/**
 * Runs a command with an argument array (never a shell), through the host
 * layer's one runner; on failure throws with the whole command line and stderr.
 */
export async function run(
  cmd: string,
  args: string[],
  opts: CommandOptions = {},
): Promise<CommandResult> {
  try {
    return await runner(cmd, args, opts);
  } catch (err) {
    if (err instanceof HostError) throw new Error(err.detail ?? err.message);
    throw err;
  }
}
