import { ConflictError, HostError, UnprocessableError, ValidationError } from "@/lib/errors.ts";
import { TunnelRevertSchema } from "@/lib/tunnel/history/schema.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  POST: {
    summary:
      "Revert one change of the peer: it is put back as it was before, through the usual checks, as a new audited change; 409 (code history_conflict) when the peer changed after it, 409 (code history_irreversible) when it cannot be put back (a deletion, a revoke, a removed preshared key: keys are never kept)",
    access: "operator",
    errors: [ConflictError, UnprocessableError, ValidationError, HostError],
    response: TunnelRevertSchema,
  },
});

export const handler = define.handlers(meta, {
  POST: (ctx) =>
    ctx.services.tunnels.history.revert(
      "peer",
      ctx.params.id,
      Number(ctx.params.entry),
      ctx.auth.user.username,
    ),
});
