/**
 * The new-route form of the routes page: destination, gateway, metric and
 * an optional interface, the service input, and a refusal next to its field.
 */
import { z } from "zod";
import { Field, Select } from "@/components/form_fields.tsx";
import { type InterfaceChoice, interfaceOptions } from "@/components/interface_choices.ts";
import { FormActions, FormSection } from "@/components/post_form.tsx";
import { formFailure, type FormState, formText, optionalInt } from "@/server/http/form.ts";

const Text = formText(200);

/** The form's fields as posted. */
export const RouteBody = z.object({
  destination: Text,
  gateway: Text,
  metric: Text,
  interface_id: Text,
});

type Values = z.infer<typeof RouteBody>;
const FIELDS = Object.keys(RouteBody.shape);

/** The service input; an empty metric is 0 and an empty interface the gateway's. */
export function routeInput(values: Values) {
  return {
    destination: values.destination.trim(),
    gateway: values.gateway.trim(),
    metric: optionalInt(values, "metric"),
    interface_id: values.interface_id === "" ? null : values.interface_id,
  };
}

/** A refused route as form state. */
export function routeFailure(
  err: unknown,
  values: Record<string, string>,
): { form: FormState; status: number } {
  return formFailure(err, values, FIELDS);
}

/** The new-route form, for operators. */
export function NewRouteForm(
  { form, interfaces }: { form: FormState; interfaces: InterfaceChoice[] },
) {
  return (
    <FormSection id="new-route" heading="New route" form={form} class="card form-grid">
      <Field
        form={form}
        name="destination"
        label="Destination"
        required
        placeholder="10.50.0.0/24"
        help="An IPv4 block with its host bits zero; 0.0.0.0/0 is the default route."
      />
      <Field
        form={form}
        name="gateway"
        label="Gateway"
        required
        placeholder="10.8.0.2"
        help="The next hop: a host inside a managed interface's block."
      />
      <Field
        form={form}
        name="metric"
        label="Metric"
        inputMode="numeric"
        placeholder="0"
        help="Lower wins; 0 when empty."
      />
      <Select
        form={form}
        name="interface_id"
        label="Interface"
        options={interfaceOptions(interfaces, "The one whose block holds the gateway")}
      />
      <FormActions label="Create route" />
    </FormSection>
  );
}
