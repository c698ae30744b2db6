/**
 * The one place the host layer starts processes: `Deno.Command` with an
 * argument array, never a shell. Secrets never go into `args`; callers pass
 * them in files (see `secret_dir.ts`) or on stdin.
 */
import { HostError } from "../errors.ts";

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CommandOptions {
  stdin?: string;
  /** Return a non-zero exit instead of throwing. */
  allowFail?: boolean;
  env?: Record<string, string>;
  /** Kill the command after this long (default 30 s): a hung `wg` must not freeze every change. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;

export type CommandRunner = (
  cmd: string,
  args: string[],
  opts?: CommandOptions,
) => Promise<CommandResult>;

/**
 * A runner that executes inside network namespace `netns` when given, via
 * `ip netns exec <netns> <cmd> …` (still an argument array).
 */
export function command(netns?: string): CommandRunner {
  return async (cmd, args, opts = {}) => {
    const [bin, argv] = netns ? ["ip", ["netns", "exec", netns, cmd, ...args]] : [cmd, args];
    let child: Deno.ChildProcess;
    const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      child = new Deno.Command(bin, {
        args: argv,
        stdin: opts.stdin === undefined ? "null" : "piped",
        stdout: "piped",
        stderr: "piped",
        env: opts.env,
        signal,
      }).spawn();
    } catch (err) {
      throw new HostError(`Cannot run "${cmd}": ${(err as Error).message}`);
    }
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
    if (signal.aborted) {
      throw new HostError(
        `Host command "${cmd} ${args.slice(0, 4).join(" ")}" timed out after ${timeoutMs} ms`,
      );
    }
    if (res.code !== 0 && !opts.allowFail) {
      // The command line is safe to show: it never carries a secret.
      throw new HostError(
        `Host command "${cmd} ${args.slice(0, 4).join(" ")}" failed: ${firstLine(res.stderr)}`,
        `${cmd} ${args.join(" ")}\n${res.stderr}`,
      );
    }
    return res;
  };
}

function firstLine(s: string): string {
  return s.trim().split("\n")[0]?.slice(0, 300) || "no error output";
}
