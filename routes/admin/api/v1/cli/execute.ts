import { ConsoleRequestSchema, ConsoleResultSchema } from "@/lib/console/schema.ts";
import {
  ForbiddenError,
  HostError,
  NotFoundError,
  UnprocessableError,
  ValidationError,
} from "@/lib/errors.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  POST: {
    summary:
      "Run one read-only console command from the allowlist (docs/tunnels.md, Console): 400 shell syntax or a bad target or parameter, 403 a command not on the allowlist (unknown or mutating), 422 host command while the host layer is off; secrets masked, every run audited",
    access: "operator",
    body: ConsoleRequestSchema,
    errors: [ValidationError, ForbiddenError, NotFoundError, UnprocessableError, HostError],
    response: ConsoleResultSchema,
  },
});

export const handler = define.handlers(meta, {
  POST: (ctx) => ctx.services.cli.execute(ctx.auth.user.username, ctx.body),
});
