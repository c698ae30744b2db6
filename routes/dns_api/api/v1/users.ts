import { z } from "zod";
import { NewUserInput, UserInfoSchema } from "@/lib/auth/schema.ts";
import { Status } from "@/server/http/status.ts";
import { define } from "@/server/listeners/dns_api/context.ts";

export const meta = define.meta({
  GET: {
    summary: "List users (never their passwords)",
    access: "administrator",
    response: z.object({ users: z.array(UserInfoSchema) }),
  },
  POST: {
    summary: "Create a user; the password is write-only",
    access: "administrator",
    body: NewUserInput,
    response: UserInfoSchema,
    status: Status.Created,
  },
});

export const handler = define.handlers(meta, {
  GET: (ctx) => ({ users: ctx.services.users.list() }),
  POST: (ctx) => ctx.services.users.create(ctx.body, ctx.auth.user.username),
});
