/**
 * Gates for tests that need system tools or root. Without the tool the test
 * prints `SKIP <name>: <tool> not installed` and passes; with
 * `PALISADE_REQUIRE_SYSTEM_TESTS=1` (set by `.ci/run`) a missing tool fails.
 */

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

/** Runs a command with an argument array (never a shell); throws with its stderr on failure. */
export async function run(
  cmd: string,
  args: string[],
  opts: { stdin?: string; allowFail?: boolean; env?: Record<string, string> } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = new Deno.Command(cmd, {
    args,
    stdin: opts.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    env: opts.env,
  }).spawn();
  if (opts.stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(opts.stdin));
    await w.close();
  }
  const out = await child.output();
  const res = {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
  if (res.code !== 0 && !opts.allowFail) {
    throw new Error(`${cmd} ${args.join(" ")} exited ${res.code}: ${res.stderr.trim()}`);
  }
  return res;
}
