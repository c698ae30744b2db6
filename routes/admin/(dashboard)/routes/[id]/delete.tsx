import { confirmRoute } from "@/components/confirm_page.tsx";

const route = confirmRoute({
  title: "Delete route",
  summary: { GET: "Confirm deleting a route", POST: "Delete a route and take it off the host" },
  load: (ctx) => ctx.services.tunnels.routes.get(ctx.params.id),
  act: async (ctx, r) => {
    await ctx.services.tunnels.routes.delete(r.id, ctx.auth.user.username);
    return "/routes?done=deleted";
  },
  text: (r) => ({
    question: (
      <>
        Delete the route to <strong>{r.destination}</strong> via <code>{r.gateway}</code> on{" "}
        {r.interface_name} (metric {r.metric})?
      </>
    ),
    consequence: "It is taken off the host at once; traffic to that block follows other routes.",
    confirmLabel: "Delete route",
    cancelHref: "/routes",
  }),
});

export const { meta, handler } = route;
export default route.Confirm;
