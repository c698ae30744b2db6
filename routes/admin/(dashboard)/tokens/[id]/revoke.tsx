import { confirmRoute } from "@/components/confirm_page.tsx";
import { NotFoundError } from "@/lib/errors.ts";

const route = confirmRoute({
  title: "Revoke API token",
  summary: { GET: "Confirm revoking one's API token", POST: "Revoke one's API token" },
  // Like the API, anyone signed in may revoke their own tokens.
  access: "viewer",
  load: (ctx) => {
    const token = ctx.services.auth.tokens.list(ctx.auth.user).find((t) => t.id === ctx.params.id);
    if (!token) throw new NotFoundError(`Token "${ctx.params.id}" does not exist`);
    return token;
  },
  act: (ctx, token) => {
    ctx.services.auth.tokens.revoke(token.id, ctx.auth.user);
    return "/tokens?done=revoked";
  },
  text: (token) => ({
    question: (
      <>
        Revoke API token <strong>{token.name}</strong> (<code>{token.prefix}</code>)?
      </>
    ),
    consequence: "Requests carrying it are refused from now on. This cannot be undone.",
    confirmLabel: `Revoke ${token.name}`,
    cancelHref: "/tokens",
  }),
});

export const { meta, handler } = route;
export default route.Confirm;
