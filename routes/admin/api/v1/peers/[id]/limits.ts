import { HostError } from "@/lib/errors.ts";
import { limitsInputSchema, LimitsSchema } from "@/lib/tunnel/lifecycle/schemas.ts";
import { member } from "@/server/http/collection.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta(member({
  member: LimitsSchema,
  read: {
    summary: "A peer's expiry and traffic quota, and its usage this period",
    access: "viewer",
  },
  update: {
    summary: "Set a peer's expiry and traffic quota (docs/peer_lifecycle.md)",
    access: "operator",
    body: limitsInputSchema,
    errors: [HostError],
  },
  remove: {
    summary: "Remove a peer's expiry and quota (a peer they disabled is enabled again)",
    access: "operator",
    errors: [HostError],
  },
}));

export const handler = define.handlers(meta, {
  GET: (ctx) => ctx.services.tunnels.limits.get(ctx.params.id),
  PUT: (ctx) => ctx.services.tunnels.limits.set(ctx.params.id, ctx.body, ctx.auth.user.username),
  DELETE: (ctx) => ctx.services.tunnels.limits.clear(ctx.params.id, ctx.auth.user.username),
});
