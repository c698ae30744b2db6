import { ConflictError, HostError, UnprocessableError, ValidationError } from "@/lib/errors.ts";
import { TunnelRevertSchema } from "@/lib/tunnel/history/schema.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  POST: {
    summary:
      "Revert one change of the firewall rule: it is put back as it was before, through the usual checks, as a new audited change; 409 (code history_conflict) when the firewall rule changed after it, 409 (code history_irreversible) when it cannot be put back",
    access: "operator",
    errors: [ConflictError, UnprocessableError, ValidationError, HostError],
    response: TunnelRevertSchema,
  },
});

export const handler = define.handlers(meta, {
  POST: (ctx) =>
    ctx.services.tunnels.history.revert(
      "firewall_rule",
      ctx.params.id,
      Number(ctx.params.entry),
      ctx.auth.user.username,
    ),
});
