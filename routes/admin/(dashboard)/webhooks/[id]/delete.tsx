import { confirmRoute } from "@/components/confirm_page.tsx";

const route = confirmRoute({
  title: "Delete webhook",
  summary: { GET: "Confirm deleting a webhook", POST: "Delete a webhook and its delivery log" },
  access: "administrator",
  load: (ctx) => ctx.services.webhooks.get(ctx.params.id),
  act: async (ctx, hook) => {
    await ctx.services.webhooks.delete(ctx.auth.user.username, hook.id);
    return "/webhooks";
  },
  text: (hook) => ({
    question: (
      <>
        Delete the webhook to <strong>{hook.url}</strong>?
      </>
    ),
    consequence: "No further events are sent to it, and its delivery log goes with it.",
    confirmLabel: "Delete webhook",
    cancelHref: `/webhooks/${hook.id}`,
  }),
});

export const { meta, handler } = route;
export default route.Confirm;
