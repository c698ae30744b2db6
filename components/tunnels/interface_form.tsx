/**
 * The interface form of the tunnels pages (create on the list, edit on the
 * detail page): its fields, how they become the service's input, and how a
 * refusal lands next to the right field.
 */
import { z } from "zod";
import { Field } from "@/components/form_fields.tsx";
import { FormActions, FormSection } from "@/components/post_form.tsx";
import type { DomainError } from "@/lib/errors.ts";
import { type InterfaceView, PROTECTED_INTERFACE } from "@/lib/tunnel/interface_service.ts";
import type { SignedInContext } from "@/server/listeners/admin/context.ts";
import { formFailure, type FormState, formText, optionalInt } from "@/server/http/form.ts";

const Text = formText(200);
const DNS_ZONE_HELP =
  "A Palisade zone: each enabled peer answers as <peer>.<zone>. Empty: not published.";

/** The form's fields as posted. */
export const InterfaceBody = z.object({
  name: Text,
  address_v4: Text,
  listen_port: Text,
  mtu: Text,
  dns_zone: Text,
});

type Values = z.infer<typeof InterfaceBody>;
type Name = keyof Values;
const FIELDS = Object.keys(InterfaceBody.shape) as Name[];
type Hints = Partial<Record<Name, { placeholder?: string; help?: string }>>;

/** What a new interface's fields show: the defaults an empty field takes. */
const NEW_HINTS: Hints = {
  name: { placeholder: "wg1", help: "1 to 15 of a–z, 0–9, _ and -." },
  address_v4: {
    placeholder: "10.8.0.1/24",
    help: "The interface's address with prefix; the block is the peers' pool.",
  },
  listen_port: { placeholder: "51820", help: "Lowest free port from 51820 when empty." },
  mtu: { placeholder: "1420", help: "1280–9000; 1420 when empty." },
  dns_zone: { placeholder: "vpn.example.org", help: DNS_ZONE_HELP },
};

/** The form's values as the interface has them now. */
export function interfaceSettingsOf(i: InterfaceView): Values {
  return {
    name: i.name,
    address_v4: i.address_v4,
    listen_port: i.listen_port === null ? "" : String(i.listen_port),
    mtu: String(i.mtu),
    dns_zone: i.dns_zone ?? "",
  };
}

/** The service input from the form's values (empty port and MTU take the defaults). */
export function interfaceInput(values: Values) {
  return {
    name: values.name.trim(),
    address_v4: values.address_v4.trim(),
    listen_port: optionalInt(values, "listen_port"),
    mtu: optionalInt(values, "mtu"),
    dns_zone: values.dns_zone.trim() || null,
  };
}

/** Saves the interface of the page; returns the page with its notice. */
export async function saveInterfaceSettings(ctx: SignedInContext, values: Values): Promise<string> {
  const id = ctx.params.id;
  await ctx.services.tunnels.interfaces.update(
    id,
    interfaceInput(values),
    ctx.auth.user.username,
  );
  return `/tunnels/${id}?done=updated`;
}

/** A refused create or update as form state: the service says "address" where the form says "address_v4". */
export function interfaceFailure(
  err: DomainError | unknown,
  values: Record<string, string>,
): { form: FormState; status: number } {
  return formFailure(err, values, FIELDS, { aliases: { address: "address_v4" } });
}

function InterfaceFields({ form, hints }: { form: FormState; hints: Hints }) {
  return (
    <>
      <Field form={form} name="name" label="Name" required {...hints.name} />
      <Field form={form} name="address_v4" label="Address" required {...hints.address_v4} />
      <Field
        form={form}
        name="listen_port"
        label="Listen port"
        inputMode="numeric"
        {...hints.listen_port}
      />
      <Field form={form} name="mtu" label="MTU" inputMode="numeric" {...hints.mtu} />
      <Field
        form={form}
        name="dns_zone"
        label="Peer names in DNS zone"
        {...{ help: DNS_ZONE_HELP, ...hints.dns_zone }}
      />
    </>
  );
}

/** The new-interface form of the tunnels list, for operators. */
export function NewInterfaceForm({ form }: { form: FormState }) {
  return (
    <FormSection id="new-interface" heading="New interface" form={form} class="card form-grid">
      <InterfaceFields form={form} hints={NEW_HINTS} />
      <FormActions label="Create interface" />
    </FormSection>
  );
}

/** The settings form of an interface's page, for operators. */
export function InterfaceSettingsForm({ form, name }: { form: FormState; name: string }) {
  const help = name === PROTECTED_INTERFACE
    ? "wg0 cannot be renamed."
    : "Renaming restarts the device.";
  return (
    <FormSection id="edit" heading="Settings" form={form} action="update" class="card form-grid">
      <InterfaceFields form={form} hints={{ name: { help } }} />
      <FormActions label="Save" />
    </FormSection>
  );
}
