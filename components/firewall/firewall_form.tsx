/**
 * The new-rule form of the firewall page: its fields, the service input,
 * and a refusal next to its field. The lists come from the service's own
 * constants, and it checks every value again.
 */
import { z } from "zod";
import { Field, Select } from "@/components/form_fields.tsx";
import { type InterfaceChoice, interfaceOptions } from "@/components/interface_choices.ts";
import { FormActions, FormSection } from "@/components/post_form.tsx";
import type { FirewallRuleCreate } from "@/lib/tunnel/firewall/firewall_service.ts";
import { ACTIONS, DIRECTIONS, PROTOCOLS } from "@/lib/tunnel/firewall/firewall_input.ts";
import {
  formFailure,
  type FormState,
  formText,
  optionalInt,
  optionalText,
} from "@/server/http/form.ts";

const Text = formText(200);

/** The form's fields as posted. */
export const FirewallBody = z.object({
  name: Text,
  protocol: Text,
  port: Text,
  action: Text,
  direction: Text,
  interface_id: Text,
  source: Text,
});

type Values = z.infer<typeof FirewallBody>;
const FIELDS = Object.keys(FirewallBody.shape);

/** What a new rule's form shows first. */
export const NEW_RULE: Record<string, string> = {
  protocol: "tcp",
  action: "accept",
  direction: "input",
};

const DIRECTION_LABELS: Record<string, string> = {
  input: "input: to this host",
  forward: "forward: through this host",
};

const options = (list: readonly string[], labels: Record<string, string> = {}) =>
  list.map((v): [string, string] => [v, labels[v] ?? v]);

/** The service input; the service checks the lists, the port rules and the source. */
export function firewallInput(values: Values): FirewallRuleCreate {
  return {
    name: values.name.trim(),
    protocol: values.protocol as FirewallRuleCreate["protocol"],
    port: optionalInt(values, "port") ?? null,
    action: values.action as FirewallRuleCreate["action"],
    direction: (values.direction || undefined) as FirewallRuleCreate["direction"],
    interface_id: values.interface_id === "" ? null : values.interface_id,
    source: optionalText(values, "source") ?? null,
  };
}

/** A refused rule as form state. */
export function firewallFailure(
  err: unknown,
  values: Record<string, string>,
): { form: FormState; status: number } {
  return formFailure(err, values, FIELDS);
}

/** The new-rule form, for operators. */
export function NewRuleForm(
  { form, interfaces }: { form: FormState; interfaces: InterfaceChoice[] },
) {
  return (
    <FormSection
      id="new-rule"
      heading="New rule"
      form={form}
      action="create"
      class="card form-grid"
    >
      <Field
        form={form}
        name="name"
        label="Name"
        required
        placeholder="ssh from the office"
        help="Unique; up to 64 ASCII letters, digits, spaces and ._@+-."
      />
      <Select form={form} name="protocol" label="Protocol" options={options(PROTOCOLS)} />
      <Field
        form={form}
        name="port"
        label="Port"
        inputMode="numeric"
        placeholder="every port"
        help="Destination port, tcp and udp only."
      />
      <Select form={form} name="action" label="Action" options={options(ACTIONS)} />
      <Select
        form={form}
        name="direction"
        label="Direction"
        options={options(DIRECTIONS, DIRECTION_LABELS)}
      />
      <Select
        form={form}
        name="interface_id"
        label="Incoming interface"
        options={interfaceOptions(interfaces, "Any interface")}
      />
      <Field
        form={form}
        name="source"
        label="Source"
        placeholder="any"
        help="An IPv4 block with its host bits zero, e.g. 192.168.1.0/24."
      />
      <FormActions label="Create rule" />
    </FormSection>
  );
}
