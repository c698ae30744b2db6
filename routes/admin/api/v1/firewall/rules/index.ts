import { HostError } from "@/lib/errors.ts";
import { firewallRuleCreateSchema, FirewallRuleSchema } from "@/lib/tunnel/firewall/schemas.ts";
import { collection } from "@/server/http/collection.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta(collection({
  key: "rules",
  item: FirewallRuleSchema,
  list: { summary: "Firewall rules in evaluation order (position)", access: "viewer" },
  create: {
    summary:
      "Create a firewall rule after every other and replace Palisade's nftables table; 400 for a malformed field, 409 for a duplicate name, 422 for a port out of 1-65535 or given for icmp or any, or an unknown interface_id",
    access: "operator",
    errors: [HostError],
    body: firewallRuleCreateSchema,
    response: FirewallRuleSchema,
  },
}));

export const handler = define.handlers(meta, {
  GET: async (ctx) => ({ rules: await ctx.services.tunnels.firewall.list() }),
  POST: (ctx) => ctx.services.tunnels.firewall.create(ctx.body, ctx.auth.user.username),
});
