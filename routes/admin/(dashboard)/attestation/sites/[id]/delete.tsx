import { confirmRoute } from "@/components/confirm_page.tsx";

const route = confirmRoute({
  title: "Delete site",
  summary: { GET: "Confirm deleting an attestation site", POST: "Delete an attestation site" },
  access: "administrator",
  load: (ctx) => ctx.services.attestSites.get(ctx.params.id),
  act: async (ctx, s) => {
    await ctx.services.attestSites.delete(s.id, ctx.auth.user.username);
    return "/attestation/sites?done=deleted";
  },
  text: (s) => ({
    question: (
      <>
        Delete site <strong>{s.name}</strong> (<code>{s.site_key}</code>)?
      </>
    ),
    consequence:
      "Its key stops creating sessions and its secret stops verifying tokens at once; pages that embed the key get 400 from /init.",
    confirmLabel: `Delete ${s.name}`,
    cancelHref: `/attestation/sites/${s.id}`,
  }),
});

export const { meta, handler } = route;
export default route.Confirm;
