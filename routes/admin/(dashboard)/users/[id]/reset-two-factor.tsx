import { confirmRoute } from "@/components/confirm_page.tsx";

const route = confirmRoute({
  title: "Reset two-factor sign-in",
  summary: {
    GET: "Confirm resetting a user's second factors (TOTP, recovery codes, passkeys)",
    POST: "Reset a user's second factors and end their sessions; not one's own",
  },
  access: "administrator",
  load: async (ctx) => {
    const user = await ctx.services.users.get(ctx.params.id);
    return { user, factors: await ctx.services.auth.twoFactorAdmin.of(user.id) };
  },
  act: async (ctx, { user }) => {
    await ctx.services.auth.twoFactorAdmin.reset(user.id, ctx.auth.user);
    return "/users?done=two_factor_reset";
  },
  text: ({ user, factors }) => ({
    question: (
      <>
        Reset the two-factor sign-in of <strong>{user.username}</strong>?
      </>
    ),
    consequence:
      "Their sessions end, and their password alone signs them in until they enrol again; if their role requires two-factor sign-in, they are sent to enrol at their next sign-in. API tokens are not affected. This cannot be undone.",
    details: (
      <ul>
        <li>
          Authenticator app (TOTP) and its recovery codes:{" "}
          {factors.totp ? "removed" : "none set up"}
        </li>
        <li>Passkeys removed: {factors.passkeys}</li>
      </ul>
    ),
    confirmLabel: `Reset two-factor of ${user.username}`,
    cancelHref: "/users",
  }),
});

export const { meta, handler } = route;
export default route.Confirm;
