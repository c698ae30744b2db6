import { z } from "zod";
import { SettingInputSchema, SettingSchema } from "@/lib/settings/schema.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "Supported settings with their values (secret values masked)",
    access: "viewer",
    response: z.object({ settings: z.array(SettingSchema) }),
  },
  PUT: {
    summary: "Upsert one setting",
    access: "administrator",
    body: SettingInputSchema,
    response: SettingSchema,
  },
});

export const handler = define.handlers(meta, {
  GET: async (ctx) => ({ settings: await ctx.services.settings.list() }),
  PUT: (ctx) => ctx.services.settings.put(ctx.body, ctx.auth.user.username),
});
