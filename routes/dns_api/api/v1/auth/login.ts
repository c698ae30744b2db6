import { z } from "zod";
import { LoginInput } from "@/lib/auth/schema.ts";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";
import { clientMeta } from "@/server/http/session_cookie.ts";

export const meta = defineMeta({
  POST: {
    summary: "Exchange a username and password for a JWT",
    access: "public",
    body: LoginInput,
    response: z.object({ token: z.string(), expires_at: z.string() }),
  },
});

export const handler = defineHandlers(meta, {
  async POST(ctx) {
    const { services } = ctx.state;
    const user = await services.auth.checkPassword(
      ctx.body.username,
      ctx.body.password,
      clientMeta(ctx),
    );
    return await services.jwt.issue(user);
  },
});
