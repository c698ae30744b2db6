import { RateLimitError } from "@/lib/errors.ts";
import { NewUserInput, UserInfoSchema } from "@/lib/auth/schema.ts";
import { collection } from "@/server/http/collection.ts";
import { define } from "@/server/listeners/dns_api/context.ts";

export const meta = define.meta(collection({
  key: "users",
  item: UserInfoSchema,
  list: {
    summary:
      "List users (never their passwords), oldest first; paged by limit and cursor or offset (all without limit)",
    access: "administrator",
  },
  paged: true,
  create: {
    summary: "Create a user; the password is write-only",
    access: "administrator",
    body: NewUserInput,
    errors: [RateLimitError],
    response: UserInfoSchema,
  },
}));

export const handler = define.handlers(meta, {
  GET: (ctx) => ctx.services.users.page(ctx.query ?? {}),
  POST: (ctx) => ctx.services.users.create(ctx.body, ctx.auth.user.username),
});
