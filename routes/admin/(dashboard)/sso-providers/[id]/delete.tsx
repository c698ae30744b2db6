import { confirmRoute } from "@/components/confirm_page.tsx";

const route = confirmRoute({
  title: "Delete sign-in provider",
  summary: { GET: "Confirm deleting a sign-in provider", POST: "Delete a sign-in provider" },
  access: "administrator",
  load: (ctx) => ctx.services.sso.providers.get(ctx.params.id),
  act: async (ctx, p) => {
    await ctx.services.sso.providers.delete(ctx.auth.user.username, p.id);
    return "/sso-providers";
  },
  text: (p) => ({
    question: (
      <>
        Delete the sign-in provider <strong>{p.display_name}</strong>?
      </>
    ),
    consequence:
      "Its button leaves the sign-in page. Users it created stay, but cannot sign in through it.",
    confirmLabel: `Delete ${p.display_name}`,
    cancelHref: `/sso-providers/${p.id}`,
  }),
});

export const { meta, handler } = route;
export default route.Confirm;
