import { z } from "zod";
import { NewUserInput, UserInfoSchema } from "@/lib/auth/schema.ts";
import { defineHandlers, defineMeta } from "@/server/http/define.ts";
import { Status } from "@/server/http/status.ts";

export const meta = defineMeta({
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

export const handler = defineHandlers(meta, {
  GET: (ctx) => ({ users: ctx.state.services.users.list() }),
  POST: (ctx) => ctx.state.services.users.create(ctx.body, ctx.state.auth!.user.username),
});
