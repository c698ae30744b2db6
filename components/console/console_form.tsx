/**
 * The console page's form: a drop-down of the allowlist's commands (never
 * free text for the command), the target, and one field per parameter any
 * command takes. Without script every field shows, each with a hint naming
 * the commands that use it; only filled ones are sent, and every check is
 * the console service's, so a refusal reads as the API's and stands next to
 * the field it names (`command`, `target`, `parameters.<key>`).
 */
import { z } from "zod";
import { Field, Select } from "@/components/form_fields.tsx";
import { FormActions, FormSection } from "@/components/post_form.tsx";
import { ALLOWLIST } from "@/lib/console/allowlist.ts";
import type { ConsoleRequest } from "@/lib/console/schema.ts";
import { formFailure, type FormState, formText } from "@/server/http/form.ts";

/** Each command's parameter schemas by name (a command without parameters has none). */
function shapeOf(key: string): Record<string, z.ZodType> {
  const schema = ALLOWLIST[key].parameters;
  return schema instanceof z.ZodObject ? schema.shape as Record<string, z.ZodType> : {};
}

/** Every parameter name with the commands that take it, in allowlist order. */
export const PARAMETERS: ReadonlyMap<string, string[]> = (() => {
  const out = new Map<string, string[]>();
  for (const key of Object.keys(ALLOWLIST)) {
    for (const name of Object.keys(shapeOf(key))) out.set(name, [...out.get(name) ?? [], key]);
  }
  return out;
})();

const paramField = (name: string) => `parameters.${name}`;

/** The form's fields as posted; the command is checked by the service, not here. */
export const ConsoleBody = z.object({
  command: formText(120),
  target: formText(255),
  ...Object.fromEntries([...PARAMETERS.keys()].map((n) => [paramField(n), formText(255)])),
});

const FIELDS = ["command", "target", ...[...PARAMETERS.keys()].map(paramField)];

/**
 * A typed parameter as the command's schema wants it: a form sends text, so
 * digits become a number where the schema refuses text for its type (limit);
 * anything else goes as typed and the service says what is wrong with it.
 */
function parameterValue(schema: z.ZodType | undefined, raw: string): unknown {
  if (!schema || !/^-?\d+$/.test(raw)) return raw;
  const r = schema.safeParse(raw);
  return !r.success && r.error.issues[0]?.code === "invalid_type" ? Number(raw) : raw;
}

/** The service request: the chosen key split into its words, the filled fields only. */
export function consoleRequest(values: Record<string, string>): ConsoleRequest {
  const words = values.command.trim().split(/\s+/);
  const shape = Object.hasOwn(ALLOWLIST, values.command) ? shapeOf(values.command) : {};
  const parameters: Record<string, unknown> = {};
  for (const name of PARAMETERS.keys()) {
    const raw = (values[paramField(name)] ?? "").trim();
    if (raw !== "") parameters[name] = parameterValue(shape[name], raw);
  }
  const target = values.target.trim();
  return {
    command: words[0] ?? "",
    subcommand: words[1] ?? null,
    sub_subcommand: words.length > 2 ? words.slice(2).join(" ") : null,
    target: target === "" ? null : target,
    parameters,
  };
}

/** A refused run as form state: next to the field the service names, else above the form. */
export function consoleFailure(
  err: unknown,
  values: Record<string, string>,
): { form: FormState; status: number } {
  return formFailure(err, values, FIELDS);
}

const TARGET_HELP: Record<string, string> = {
  interface: "an interface name",
  uuid: "a peer id",
  zone: "a zone name",
  dns_name: "a DNS name",
  subsystem: "a subsystem name",
};

/** Which commands need a target, which take one, and what it is. */
function targetHelp(): string {
  const parts = Object.entries(ALLOWLIST).filter(([, c]) => c.target !== "none").map(([k, c]) =>
    `${k}: ${TARGET_HELP[c.targetKind!] ?? c.targetKind}${
      c.target === "optional" ? " or empty" : ""
    }`
  );
  return `Only for ${parts.join("; ")}.`;
}

const PARAMETER_HELP: Record<string, string> = {
  interface: "An interface name.",
  status: "enabled, disabled or revoked.",
  limit: "A whole number (peers list: 1 to 1000, default 100; audit tail: 1 to 100, default 20).",
  type: "A record type, default A (not AXFR or IXFR).",
};

/** The console form, for operators. */
export function ConsoleForm({ form }: { form: FormState }) {
  const options: [string, string][] = Object.entries(ALLOWLIST).map((
    [k, c],
  ) => [k, `${k} — ${c.summary}`]);
  return (
    <FormSection id="console-run" heading="Run a command" form={form} class="card form-grid">
      <Select form={form} name="command" label="Command" options={options} />
      <Field form={form} name="target" label="Target" help={targetHelp()} />
      {[...PARAMETERS].map(([name, commands]) => (
        <Field
          key={name}
          form={form}
          name={paramField(name)}
          label={`Parameter ${name}`}
          help={`${PARAMETER_HELP[name] ?? ""} Only for ${commands.join(", ")}.`.trim()}
        />
      ))}
      <FormActions label="Run" />
    </FormSection>
  );
}
