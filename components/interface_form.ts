/**
 * The interface form of the tunnels pages (create on the list, edit on the
 * detail page): its fields, how they become the service's input, and how a
 * refusal lands next to the right field.
 */
import type { DomainError } from "@/lib/errors.ts";
import { formFailure, type FormState, optionalInt } from "@/server/http/form.ts";

export const INTERFACE_FIELDS = ["name", "address_v4", "listen_port", "mtu"] as const;

type Values = Record<(typeof INTERFACE_FIELDS)[number], string>;

/** The service input from the form's values (empty port and MTU take the defaults). */
export function interfaceInput(values: Values) {
  return {
    name: values.name.trim(),
    address_v4: values.address_v4.trim(),
    listen_port: optionalInt(values, "listen_port"),
    mtu: optionalInt(values, "mtu"),
  };
}

/** A refused create or update as form state: the service says "address" where the form says "address_v4". */
export function interfaceFailure(
  err: DomainError | unknown,
  values: Record<string, string>,
): { form: FormState; status: number } {
  return formFailure(err, values, INTERFACE_FIELDS, { aliases: { address: "address_v4" } });
}
