/** Zod schemas of settings at the API edge. */
import { z } from "zod";

/** A value may be sent as a string, number or boolean; it is stored as a string. */
export const SettingInputSchema = z.object({
  key: z.string().min(1).max(200),
  value: z.union([z.string().max(4096), z.number(), z.boolean()]).transform(String),
  is_secret: z.boolean().optional(),
  description: z.string().max(500).optional(),
});

export const SettingSchema = z.object({
  key: z.string(),
  value: z.string(),
  is_secret: z.boolean(),
  description: z.string(),
  updated_at: z.string().nullable(),
});
