/**
 * The console's allowlist: every command it runs, keyed by its words
 * (command, subcommand, sub_subcommand joined by spaces). Anything else is
 * refused: 403 when a word is a verb that changes state (the spec's
 * "rejects mutating commands"), 400 otherwise; both list what is allowed.
 */
import { ForbiddenError } from "../errors.ts";
import { HOST_COMMANDS } from "./host_commands.ts";
import { INTERNAL_COMMANDS } from "./internal_commands.ts";
import type { ConsoleCommand } from "./types.ts";

export const ALLOWLIST: Readonly<Record<string, ConsoleCommand>> = {
  ...INTERNAL_COMMANDS,
  ...HOST_COMMANDS,
};

/** Words that name a change in the API, iproute2, wg or nft. */
const MUTATING_VERBS = new Set([
  "add",
  "append",
  "apply",
  "change",
  "create",
  "del",
  "delete",
  "destroy",
  "disable",
  "down",
  "enable",
  "flush",
  "genkey",
  "import",
  "insert",
  "remove",
  "rename",
  "replace",
  "reset",
  "restart",
  "restore",
  "revoke",
  "rotate",
  "set",
  "setconf",
  "syncconf",
  "addconf",
  "up",
  "update",
]);

/** The words of a request, empty ones dropped, lower-cased. */
export function commandKey(words: (string | null | undefined)[]): string {
  return words.map((w) => (w ?? "").trim().toLowerCase()).filter(Boolean).join(" ");
}

/** The allowed command keys, for error messages. */
export function allowedList(): string {
  return Object.keys(ALLOWLIST).join(", ");
}

/**
 * The command for `key`; ForbiddenError for any other: one that changes state
 * (code mutating_command) or one the console does not know (unknown_command).
 * Both are "not allowed here", not malformed input: the request itself is
 * well-formed, so the answer is 403 with the list of what is allowed.
 */
export function lookup(key: string): ConsoleCommand {
  const hit = Object.hasOwn(ALLOWLIST, key) ? ALLOWLIST[key] : undefined;
  if (hit) return hit;
  const shown = JSON.stringify(key.slice(0, 120));
  if (key.split(" ").some((w) => MUTATING_VERBS.has(w))) {
    throw new ForbiddenError(
      `Command ${shown} changes state; the console is read-only and runs only: ${allowedList()}`,
      { field: "command", code: "mutating_command" },
    );
  }
  throw new ForbiddenError(
    `Command ${shown} is not on the console's allowlist: ${allowedList()}`,
    { field: "command", code: "unknown_command" },
  );
}

/** True when `key` was refused as mutating (for the audit of refusals). */
export function isMutating(key: string): boolean {
  return !Object.hasOwn(ALLOWLIST, key) && key.split(" ").some((w) => MUTATING_VERBS.has(w));
}
