import { ForbiddenError, RateLimitError, UnauthorizedError } from "@/lib/errors.ts";
import { z } from "zod";
import { LoginInput } from "@/lib/auth/schema.ts";
import { clientMeta } from "@/server/http/session_cookie.ts";
import { define } from "@/server/listeners/dns_api/context.ts";
import { LOGIN_BODY_LIMIT } from "@/server/http/request_body.ts";

export const meta = define.meta({
  POST: {
    summary: "Exchange a username and password for a JWT",
    access: "public",
    errors: [UnauthorizedError, ForbiddenError, RateLimitError],
    maxBodyBytes: LOGIN_BODY_LIMIT,
    body: LoginInput,
    response: z.object({ token: z.string(), expires_at: z.string() }),
  },
});

export const handler = define.handlers(meta, {
  async POST(ctx) {
    const { services } = ctx;
    const user = await services.auth.checkPassword(
      ctx.body.username,
      ctx.body.password,
      clientMeta(ctx),
      { totpCode: ctx.body.totp_code },
    );
    return await services.jwt.issue(user);
  },
});
