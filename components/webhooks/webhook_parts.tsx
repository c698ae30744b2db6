/** The webhooks pages' parts (docs/webhooks.md): the list, the new-webhook form, the delivery log. */
import { z } from "zod";
import { Check, Field } from "@/components/form_fields.tsx";
import { FormActions, FormSection } from "@/components/post_form.tsx";
import { Table } from "@/components/table.tsx";
import { WEBHOOK_EVENT_TYPES, WEBHOOK_EVENTS } from "@/lib/webhooks/event_types.ts";
import type { DeliveryInfo, WebhookInfo } from "@/lib/webhooks/webhook_service.ts";
import type { FormState } from "@/server/http/form.ts";
import { formText } from "@/server/http/form.ts";

/** A checkbox's field name per event type (dots are awkward in ids). */
export const eventField = (type: string) => `event_${type.replace(".", "_")}`;

export const WebhookBody = z.object({
  url: formText(2000),
  ...Object.fromEntries(WEBHOOK_EVENT_TYPES.map((t) => [eventField(t), formText(10)])),
});

export const WEBHOOK_FIELDS = ["url", "events"];

const when = (iso: string) => iso.slice(0, 19).replace("T", " ");

export function WebhooksTable({ hooks }: { hooks: WebhookInfo[] }) {
  if (hooks.length === 0) return <p class="muted">No webhooks.</p>;
  return (
    <Table
      class="webhooks"
      columns={[{ label: "URL" }, { label: "Events" }, { label: "State" }, { label: "Created" }]}
    >
      {hooks.map((h) => (
        <tr key={h.id} data-webhook-id={h.id}>
          <td>
            <a href={`/webhooks/${h.id}`}>{h.url}</a>
          </td>
          <td>{h.events.join(", ")}</td>
          <td>{h.enabled ? "enabled" : "disabled"}</td>
          <td>{when(h.created_at)} by {h.created_by}</td>
        </tr>
      ))}
    </Table>
  );
}

export function NewWebhookForm({ form }: { form: FormState }) {
  return (
    <FormSection id="new-webhook" heading="New webhook" form={form} class="card form-grid">
      <Field
        form={form}
        name="url"
        label="URL"
        required
        placeholder="https://hooks.example/palisade"
      />
      <fieldset>
        <legend>Events</legend>
        {form.errors.events && <p class="error">{form.errors.events}</p>}
        {WEBHOOK_EVENT_TYPES.map((t) => (
          <Check
            key={t}
            form={form}
            name={eventField(t)}
            label={`${t}: ${WEBHOOK_EVENTS[t]}`}
            checked={form.values[eventField(t)] === "true"}
          />
        ))}
      </fieldset>
      <FormActions label="Create webhook" />
    </FormSection>
  );
}

export function DeliveryLog({ rows }: { rows: DeliveryInfo[] }) {
  if (rows.length === 0) return <p class="muted">No deliveries yet.</p>;
  return (
    <Table
      class="deliveries"
      columns={[
        { label: "Time" },
        { label: "Event" },
        { label: "Attempt" },
        { label: "Status" },
        { label: "Response" },
        { label: "Error" },
      ]}
    >
      {rows.map((d) => (
        <tr key={d.id} data-delivery-id={d.id}>
          <td>{when(d.time)}</td>
          <td>{d.event_type}</td>
          <td>{d.attempt}</td>
          <td>{d.status}</td>
          <td>{d.response_code ?? "—"}</td>
          <td>{d.error ?? ""}</td>
        </tr>
      ))}
    </Table>
  );
}

/** The signing secret of the webhook just created (or rotated): on this answer only. */
export function WebhookSecret(
  { url, secret, what = "created", note }: {
    url: string;
    secret: string;
    what?: string;
    note?: string;
  },
) {
  return (
    <section class="card stack" aria-labelledby="webhook-secret">
      <h2 id="webhook-secret">Webhook to {url} {what}</h2>
      <p class="notice" role="alert">
        Copy its signing secret now: it will not be shown again. Receivers verify the{" "}
        <code>Palisade-Signature</code> header with it.{note && ` ${note}`}
      </p>
      <pre id="new-webhook-secret">{secret}</pre>
    </section>
  );
}
