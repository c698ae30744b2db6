import { z } from "zod";
import { TokenCreateInput, TokenMetaSchema } from "@/lib/auth/schema.ts";
import { Status } from "@/server/http/status.ts";
import { requireSession } from "@/server/http/session_cookie.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "List API token metadata (the caller's; all with ?all=true for administrators)",
    access: "viewer",
    query: z.object({ all: z.enum(["true", "false"]).optional() }),
    response: z.object({ tokens: z.array(TokenMetaSchema) }),
  },
  POST: {
    summary: "Create an API token; raw_token is shown only in this response",
    access: "viewer",
    body: TokenCreateInput,
    response: z.object({ raw_token: z.string(), meta: TokenMetaSchema }),
    status: Status.Created,
  },
});

export const handler = define.handlers(meta, {
  async GET(ctx) {
    return {
      tokens: await ctx.services.auth.tokens.list(ctx.auth.user, ctx.query.all === "true"),
    };
  },
  POST(ctx) {
    // A leaked token must not be able to mint a longer-lived one that survives its revocation.
    requireSession(ctx, "Creating an API token");
    return ctx.services.auth.tokens.create(
      ctx.auth.user,
      ctx.body.name,
      ctx.body.expires_in_days,
    );
  },
});
