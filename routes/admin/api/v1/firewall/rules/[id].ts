import { HostError } from "@/lib/errors.ts";
import { FirewallRuleSchema } from "@/lib/tunnel/firewall/schemas.ts";
import { removableMember } from "@/server/http/collection.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta(removableMember({
  member: FirewallRuleSchema,
  read: { summary: "One firewall rule", access: "viewer" },
  remove: {
    summary: "Delete the firewall rule and take it out of the host's table",
    access: "operator",
    errors: [HostError],
  },
}));

export const handler = define.handlers(meta, {
  GET: (ctx) => ctx.services.tunnels.firewall.get(ctx.params.id),
  async DELETE(ctx) {
    await ctx.services.tunnels.firewall.delete(ctx.params.id, ctx.auth.user.username);
    return { success: true, message: "Firewall rule deleted" };
  },
});
