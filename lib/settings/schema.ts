/**
 * Zod schemas of settings at the API edge. The service refuses an unknown
 * key (400) and a value its key does not take (422) with its own messages;
 * the keys and the values each takes are documented here from SETTING_KEYS.
 */
import { z } from "zod";
import { documented } from "../schema_doc.ts";
import { SETTING_KEYS } from "./settings.ts";

/** What each key's value must be, for the document (the service's normalizers decide). */
const VALUE_DOCS: Record<string, Record<string, unknown>> = {
  "wireguard.server_host": {
    type: "string",
    description: "Host name or address, without a port",
    examples: ["vpn.example.com", "192.0.2.1"],
  },
  "wireguard.server_port": {
    type: "integer",
    description: "A UDP port (a decimal string is taken too)",
    minimum: 1,
    maximum: 65535,
  },
  "wireguard.server_endpoint_enabled": {
    type: "boolean",
    description: 'true or false (the strings "true" and "false" are taken too)',
  },
  "auth.two_factor_roles": {
    type: "string",
    description: "Comma-separated role names (viewer, operator, administrator); empty for none",
    examples: ["administrator", "operator,administrator", ""],
  },
};

const keys = Object.keys(SETTING_KEYS);

/** A value may be sent as a string, number or boolean; it is stored as a string. */
export const SettingInputSchema = documented(
  z.object({
    key: documented(z.string().min(1).max(200), { enum: keys }),
    value: z.union([z.string().max(4096), z.number(), z.boolean()]).transform(String),
    is_secret: z.boolean().optional(),
    description: z.string().max(500).optional(),
  }),
  {
    oneOf: keys.map((key) => ({
      properties: { key: { const: key }, value: VALUE_DOCS[key] ?? { type: "string" } },
    })),
  },
);

export const SettingSchema = z.object({
  key: z.string(),
  value: z.string(),
  is_secret: z.boolean(),
  description: z.string(),
  updated_at: z.string().nullable(),
});
