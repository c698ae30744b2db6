import { confirmRoute } from "@/components/confirm_page.tsx";
import { formatTime } from "@/components/format.ts";

const route = confirmRoute({
  title: "Delete backup",
  access: "administrator",
  summary: { GET: "Confirm deleting a backup", POST: "Delete a backup's file and manifest" },
  load: (ctx) => ctx.services.backups.get(ctx.params.id),
  act: async (ctx, b) => {
    await ctx.services.backups.delete(b.id, ctx.auth.user.username);
    return "/backups?done=deleted";
  },
  text: (b) => ({
    question: (
      <>
        Delete backup <strong>{b.id}</strong> of {formatTime(b.created_at)}?
      </>
    ),
    consequence: "Its file is removed from the data directory; the store does not change.",
    confirmLabel: "Delete this backup",
    cancelHref: "/backups",
  }),
});

export const { meta, handler } = route;
export default route.Confirm;
