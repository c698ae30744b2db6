/**
 * Checks of what a console client sends besides the command words: the
 * target and the parameters. Nothing reaches a shell (host commands are
 * argument arrays), but the console refuses shell syntax and path traversal
 * outright, naming the field, so that a probe gets a clear answer and never
 * depends on a later check happening to reject it.
 */
import type { z } from "zod";
import { ValidationError } from "../errors.ts";
import { normalizeName } from "../dns/names.ts";
import { INTERFACE_NAME } from "../tunnel/validate.ts";

/** Sequences refused in any target or parameter value. */
const FORBIDDEN = [";", "&&", "||", "|", "`", "$(", "${", "..", "\n", "\r", "\0", "<", ">"];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SUBSYSTEM = /^[a-z0-9_-]{1,32}$/;

/** Throws a ValidationError naming `field` when `value` holds a forbidden sequence. */
export function refuseShellSyntax(value: string, field: string): void {
  const hit = FORBIDDEN.find((s) => value.includes(s));
  if (hit === undefined) return;
  throw new ValidationError(
    `Field "${field}" contains ${JSON.stringify(hit)}, which the console never accepts`,
    { field, code: "forbidden_syntax" },
  );
}

/** refuseShellSyntax() over the target and every string among the parameters. */
export function refuseShellSyntaxIn(target: string | null, parameters: Record<string, unknown>) {
  if (target !== null) refuseShellSyntax(target, "target");
  const walk = (v: unknown, field: string): void => {
    if (typeof v === "string") refuseShellSyntax(v, field);
    else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${field}[${i}]`));
    else if (v !== null && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) walk(x, `${field}.${k}`);
    }
  };
  for (const [k, v] of Object.entries(parameters)) walk(v, `parameters.${k}`);
}

/** What a command takes as its target. */
export type TargetKind = "interface" | "uuid" | "zone" | "dns_name" | "subsystem";

/** The target checked by its kind's rule; the value to use (zone names normalized). */
export function checkTarget(kind: TargetKind, target: string): string {
  const bad = (what: string) =>
    new ValidationError(`Target ${JSON.stringify(target)} is not ${what}`, "target");
  switch (kind) {
    case "interface":
      if (!INTERFACE_NAME.test(target)) throw bad("an interface name ([a-z0-9_-], 1 to 15)");
      return target;
    case "uuid":
      if (!UUID.test(target.toLowerCase())) throw bad("a UUID");
      return target.toLowerCase();
    case "subsystem":
      if (!SUBSYSTEM.test(target)) throw bad("a subsystem name");
      return target;
    case "zone":
    case "dns_name":
      return normalizeName(target, "target");
  }
}

/** Parses `parameters` with a command's schema; a failure names `parameters.<key>`. */
export function parseParameters<S extends z.ZodType>(
  schema: S,
  parameters: Record<string, unknown>,
): z.infer<S> {
  const r = schema.safeParse(parameters);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const key = issue.path.map(String).join(".");
  const field = key ? `parameters.${key}` : "parameters";
  const keys = issue.code === "unrecognized_keys" ? ` (${issue.keys.join(", ")})` : "";
  throw new ValidationError(`Invalid ${field}${keys}: ${issue.message.toLowerCase()}`, field);
}
