import { confirmRoute } from "@/components/confirm_page.tsx";

const route = confirmRoute({
  title: "Delete firewall rule",
  summary: {
    GET: "Confirm deleting a firewall rule",
    POST: "Delete a firewall rule and take it out of the host's table",
  },
  load: (ctx) => ctx.services.tunnels.firewall.get(ctx.params.id),
  act: async (ctx, r) => {
    await ctx.services.tunnels.firewall.delete(r.id, ctx.auth.user.username);
    return "/firewall?done=deleted";
  },
  text: (r) => ({
    question: (
      <>
        Delete firewall rule <strong>{r.name}</strong> ({r.action} {r.protocol}
        {r.port === null ? "" : ` port ${r.port}`})?
      </>
    ),
    consequence: r.enabled
      ? "It leaves the host's table at once. To stop it for a while, disable it instead."
      : "It is disabled, so the host's table does not change.",
    confirmLabel: `Delete ${r.name}`,
    cancelHref: "/firewall",
  }),
});

export const { meta, handler } = route;
export default route.Confirm;
