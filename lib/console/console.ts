/**
 * POST /cli/execute: runs one allowlisted read-only command (allowlist.ts)
 * with a checked target and parameters, masks secrets in what it shows
 * (masking.ts), times it and audits it. The audit holds the command, never
 * its output.
 */
import { UnprocessableError, ValidationError } from "../errors.ts";
import { allowedList, commandKey, isMutating, lookup } from "./allowlist.ts";
import { checkTarget, parseParameters, refuseShellSyntaxIn } from "./input.ts";
import { maskKeys, maskValue, maskWgDump } from "./masking.ts";
import type { ConsoleRequest, ConsoleResult } from "./schema.ts";
import type { ConsoleCommand, ConsoleDeps, HostCommand } from "./types.ts";

/** Output beyond this many characters is cut (and `truncated` set). */
const MAX_OUTPUT = 1_000_000;
/** A console command is a quick read; a hung one must not hold a request long. */
const HOST_TIMEOUT_MS = 10_000;

export type { ConsoleRequest, ConsoleResult } from "./schema.ts";
export type { ConsoleDeps } from "./types.ts";

export class ConsoleService {
  constructor(private readonly deps: ConsoleDeps) {}

  /** Runs `req` for `actor`; refusals throw before anything runs. */
  async execute(actor: string, req: ConsoleRequest): Promise<ConsoleResult> {
    const key = commandKey([req.command, req.subcommand, req.sub_subcommand]);
    let cmd: ConsoleCommand;
    try {
      cmd = lookup(key);
    } catch (err) {
      if (isMutating(key)) {
        await this.#audit(
          actor,
          "console.refused",
          key,
          `Refused ${JSON.stringify(key.slice(0, 120))}: it changes state`,
        );
      }
      throw err;
    }
    const rawTarget = req.target === undefined || req.target === "" ? null : req.target;
    const rawParams = req.parameters ?? {};
    refuseShellSyntaxIn(rawTarget, rawParams);
    const target = this.#target(cmd, key, rawTarget);
    const params = parseParameters(cmd.parameters, rawParams);
    const started = performance.now();
    const result = cmd.kind === "host"
      ? await this.#host(cmd, key, target)
      : await this.#internal(cmd, key, target, params);
    result.duration_ms = Math.round((performance.now() - started) * 10) / 10;
    const shown = result.command_line ?? (target === null ? key : `${key} ${target}`);
    await this.#audit(actor, "console.executed", key, `Ran "${shown}" (exit ${result.exit_code})`);
    return result;
  }

  /** The target checked against the command's use of it. */
  #target(cmd: ConsoleCommand, key: string, target: string | null): string | null {
    if (cmd.target === "none") {
      if (target !== null) {
        throw new ValidationError(`Command "${key}" takes no target`, "target");
      }
      return null;
    }
    if (target === null) {
      if (cmd.target === "required") {
        throw new ValidationError(`Command "${key}" needs a target`, "target");
      }
      return null;
    }
    return checkTarget(cmd.targetKind!, target);
  }

  async #internal(
    cmd: ConsoleCommand & { kind: "internal" },
    key: string,
    target: string | null,
    params: Record<string, unknown>,
  ): Promise<ConsoleResult> {
    const output = maskValue(await cmd.run(this.deps, target, params));
    const text = JSON.stringify(output) ?? "null";
    const truncated = text.length > MAX_OUTPUT;
    return {
      command: key,
      kind: "internal",
      command_line: null,
      output: truncated ? text.slice(0, MAX_OUTPUT) : output,
      stderr: null,
      exit_code: 0,
      duration_ms: 0,
      truncated,
    };
  }

  async #host(cmd: HostCommand, key: string, target: string | null): Promise<ConsoleResult> {
    const driver = this.deps.tunnels.driver;
    if (driver.name !== "linux" || !driver.active) {
      throw new UnprocessableError(
        `Command "${key}" runs on the host, and the host layer is off (driver "${driver.name}"); internal commands still work: ${allowedList()}`,
        { field: "command", code: "host_inactive" },
      );
    }
    const [bin, args] = cmd.argv(this.deps, target);
    const res = await this.deps.run(bin, args, { allowFail: true, timeoutMs: HOST_TIMEOUT_MS });
    const argv = this.deps.netns
      ? ["ip", "netns", "exec", this.deps.netns, bin, ...args]
      : [bin, ...args];
    const masked = cmd.format === "wg_dump" ? maskWgDump(res.stdout) : maskKeys(res.stdout);
    const truncated = masked.length > MAX_OUTPUT;
    const text = truncated ? masked.slice(0, MAX_OUTPUT) : masked;
    return {
      command: key,
      kind: "host",
      command_line: argv.join(" "),
      output: cmd.format === "json" && !truncated ? jsonOrText(text) : text,
      stderr: res.stderr ? maskKeys(res.stderr).slice(0, MAX_OUTPUT) : null,
      exit_code: res.code,
      duration_ms: 0,
      truncated,
    };
  }

  #audit(actor: string, event: string, key: string, message: string): Promise<unknown> {
    return this.deps.transactor.tx(() =>
      this.deps.audit.add({
        actor,
        event_type: event,
        message,
        resource_type: "console",
        resource_id: key.slice(0, 120),
      })
    );
  }
}

/** Parsed JSON when `text` is JSON, the text otherwise (an error message, empty output). */
function jsonOrText(text: string): unknown {
  if (!text.trim()) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
