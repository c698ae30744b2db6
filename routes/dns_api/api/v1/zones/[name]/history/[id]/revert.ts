import { RevertResultSchema } from "@/lib/dns/history/schema.ts";
import { requireScope } from "@/server/listeners/dns_api/key_scope.ts";
import { define } from "@/server/listeners/dns_api/context.ts";

export const meta = define.meta({
  POST: {
    summary:
      "Revert one change set (Palisade extension): its RRsets are put back as they were, as a new change set; 409 (code history_conflict) when a later change touched the same RRsets",
    access: "operator",
    response: RevertResultSchema,
  },
});

export const handler = define.handlers(meta, {
  async POST(ctx) {
    // Putting RRsets back may touch any name and type: only a key that writes the whole zone.
    await requireScope(ctx, { access: "write", zone: ctx.params.name, allRecords: true });
    const id = Number(ctx.params.id);
    return await ctx.services.dns.revertChange(ctx.auth.user.username, ctx.params.name, id);
  },
});
