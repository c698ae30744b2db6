import { OkSchema } from "@/lib/auth/schema.ts";
import { HostError } from "@/lib/errors.ts";
import { FirewallRuleSchema } from "@/lib/tunnel/firewall/schemas.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: { summary: "One firewall rule", access: "viewer", response: FirewallRuleSchema },
  DELETE: {
    summary: "Delete the firewall rule and take it out of the host's table",
    access: "operator",
    errors: [HostError],
    response: OkSchema,
  },
});

export const handler = define.handlers(meta, {
  GET: (ctx) => ctx.services.tunnels.firewall.get(ctx.params.id),
  async DELETE(ctx) {
    await ctx.services.tunnels.firewall.delete(ctx.params.id, ctx.auth.user.username);
    return { success: true, message: "Firewall rule deleted" };
  },
});
