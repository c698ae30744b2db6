import { z } from "zod";
import { SettingInputSchema, SettingSchema } from "@/lib/settings/schema.ts";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";

export const meta = defineMeta({
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

export const handler = defineHandlers(meta, {
  GET: (ctx) => ({ settings: ctx.state.services.settings.list() }),
  PUT: (ctx) => ctx.state.services.settings.put(ctx.body, ctx.state.auth!.user.username),
});
