import { HostError } from "@/lib/errors.ts";
import { FirewallRuleSchema } from "@/lib/tunnel/firewall/schemas.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  POST: {
    summary:
      "Put the rule (back) into Palisade's nftables table at its position; 200 without a change when already enabled",
    access: "operator",
    errors: [HostError],
    response: FirewallRuleSchema,
  },
});

export const handler = define.handlers(meta, {
  POST: (ctx) => ctx.services.tunnels.firewall.enable(ctx.params.id, ctx.auth.user.username),
});
