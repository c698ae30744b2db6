import { confirmRoute } from "@/components/confirm_page.tsx";

const route = confirmRoute({
  title: "Revoke DNS API key",
  summary: { GET: "Confirm revoking a DNS API key", POST: "Revoke a DNS API key" },
  access: "administrator",
  load: (ctx) => ctx.services.dnsApiKeys.get(ctx.params.id),
  act: async (ctx, key) => {
    await ctx.services.dnsApiKeys.revoke(ctx.auth.user.username, key.id);
    return "/dns-api-keys?done=revoked";
  },
  text: (key) => ({
    question: (
      <>
        Revoke DNS API key <strong>{key.name}</strong>?
      </>
    ),
    consequence: "Requests carrying it are refused from now on. This cannot be undone.",
    confirmLabel: `Revoke ${key.name}`,
    cancelHref: "/dns-api-keys",
  }),
});

export const { meta, handler } = route;
export default route.Confirm;
