/**
 * Request and response shapes of the webhook routes (admin API), in zod;
 * responses feed the OpenAPI document and are kept equal to the service
 * types at compile time.
 */
import { z } from "zod";
import { documented } from "../schema_doc.ts";
import { WEBHOOK_EVENT_TYPES } from "./event_types.ts";
import { URL_MAX } from "./url_guard.ts";
import type {
  DeliveryInfo,
  RotatedSecret,
  WebhookInfo,
  WebhookWithSecret,
} from "./webhook_service.ts";

/** POST /webhooks and PUT /webhooks/{id} */
export const webhookInputSchema = z.strictObject({
  url: documented(z.string().max(URL_MAX), {
    description:
      "http(s) URL without credentials; its host must not resolve to loopback or link-local addresses unless PALISADE_WEBHOOK_ALLOW_LOCAL is set",
    examples: ["http://10.20.0.5:8080/palisade", "https://192.0.2.10/hooks/palisade"],
  }),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1).max(WEBHOOK_EVENT_TYPES.length).describe(
    'Event types (docs/webhooks.md, "Events")',
  ),
  enabled: z.boolean().optional().describe("Default true on creation; unchanged on update"),
});

const iso = z.string().describe("ISO 8601 time");

/** A subscription (WebhookInfo): never its secret. */
export const WebhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  created_at: iso,
  updated_at: iso,
  created_by: z.string(),
});

export const WebhookWithSecretSchema = WebhookSchema.extend({
  secret: z.string().describe(
    "Signing secret (whsec_…) for verifying Palisade-Signature; shown only in this response",
  ),
});

export const RotatedSecretSchema = WebhookWithSecretSchema.extend({
  previous_secret_valid_until: iso.describe(
    "Until then each delivery carries a second v1 signature, made with the previous secret",
  ),
});

export const DeliverySchema = z.object({
  id: z.string(),
  event_id: z.string().describe("The body's id: the same on each attempt"),
  event_type: z.string(),
  attempt: z.number().int(),
  status: z.string().describe("delivered, retrying (another attempt follows) or failed"),
  response_code: z.number().int().nullable(),
  error: z.string().nullable(),
  time: iso,
});

export const DeliveriesSchema = z.object({ deliveries: z.array(DeliverySchema) });

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
function same<_T extends true>() {}
same<Same<z.output<typeof WebhookSchema>, WebhookInfo>>();
same<Same<z.output<typeof WebhookWithSecretSchema>, WebhookWithSecret>>();
same<Same<z.output<typeof RotatedSecretSchema>, RotatedSecret>>();
same<Same<z.output<typeof DeliverySchema>, DeliveryInfo>>();
