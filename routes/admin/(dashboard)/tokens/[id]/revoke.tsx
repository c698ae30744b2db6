import { confirmRoute } from "@/components/confirm_page.tsx";
import type { TokenMeta } from "@/lib/auth/tokens.ts";
import { NotFoundError } from "@/lib/errors.ts";
import type { SignedInContext } from "@/server/listeners/admin/context.ts";

/** Another user's token: only an administrator reaches it (the list below is all of theirs). */
const othersOf = (ctx: SignedInContext, token: TokenMeta) => token.user_id !== ctx.auth.user.id;

const route = confirmRoute({
  title: "Revoke API token",
  summary: {
    GET: "Confirm revoking an API token (one's own; any user's for administrators)",
    POST: "Revoke an API token (one's own; any user's for administrators)",
  },
  // Like the API, anyone signed in may revoke their own tokens; administrators anyone's.
  access: "viewer",
  load: async (ctx) => {
    // As DELETE /auth/tokens/{id}: `list(…, true)` is every token for an administrator and
    // one's own for anyone else, so another user's token is 404 for a non-administrator.
    const token = (await ctx.services.auth.tokens.list(ctx.auth.user, true)).find((t) =>
      t.id === ctx.params.id
    );
    if (!token) throw new NotFoundError(`Token "${ctx.params.id}" does not exist`);
    return { token, others: othersOf(ctx, token) };
  },
  act: async (ctx, { token, others }) => {
    await ctx.services.auth.tokens.revoke(token.id, ctx.auth.user);
    return others ? "/tokens?all=true&done=revoked" : "/tokens?done=revoked";
  },
  text: ({ token, others }) => ({
    question: (
      <>
        Revoke API token <strong>{token.name}</strong> (<code>{token.prefix}</code>)
        {others && (
          <>
            {" "}of user <strong>{token.username}</strong>
          </>
        )}?
      </>
    ),
    consequence: "Requests carrying it are refused from now on. This cannot be undone.",
    confirmLabel: `Revoke ${token.name}`,
    cancelHref: others ? "/tokens?all=true" : "/tokens",
  }),
});

export const { meta, handler } = route;
export default route.Confirm;
