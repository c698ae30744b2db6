import { confirmRoute } from "@/components/confirm_page.tsx";
import { formatTime } from "@/components/format.ts";

const route = confirmRoute({
  title: "Restore backup",
  access: "administrator",
  summary: {
    GET: "Confirm restoring the store from a backup",
    POST: "Restore the store from a backup (a safety backup of the current state first)",
  },
  load: (ctx) => ctx.services.backups.get(ctx.params.id),
  act: async (ctx, b) => {
    await ctx.services.backups.restore(b.id, ctx.auth.user.username);
    return "/backups?done=restored";
  },
  text: (b) => ({
    question: (
      <>
        Restore backup <strong>{b.id}</strong> of {formatTime(b.created_at)}?
      </>
    ),
    consequence:
      "Every interface, peer, zone, user, session, token and setting is replaced by the backup's; changes made since it was taken are lost (the audit log is kept). A safety backup of the current state is taken first, so this can be undone by restoring it. Sessions started after the backup are signed out.",
    confirmLabel: "Restore this backup",
    cancelHref: "/backups",
  }),
});

export const { meta, handler } = route;
export default route.Confirm;
