import { HostError } from "@/lib/errors.ts";
import { FirewallRuleSchema } from "@/lib/tunnel/firewall/schemas.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  POST: {
    summary:
      "Take the rule out of Palisade's nftables table, keeping it stored; 200 without a change when already disabled",
    access: "operator",
    errors: [HostError],
    response: FirewallRuleSchema,
  },
});

export const handler = define.handlers(meta, {
  POST: (ctx) => ctx.services.tunnels.firewall.disable(ctx.params.id, ctx.auth.user.username),
});
