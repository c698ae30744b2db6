import { z } from "zod";
import { externalRedirect, redirectUri, setPendingCookie } from "@/server/http/sso.ts";
import { define } from "@/server/listeners/admin/context.ts";

// Checked again on the way back by ctx.redirect(), which only follows paths on this origin.
// deno-lint-ignore no-control-regex -- control characters are what this refuses
const Next = z.string().regex(/^\/(?![\/\\])[^\\\x00-\x1f\x7f]*$/).max(2000).catch("/");

export const meta = define.meta({
  GET: {
    summary: "Start single sign-on with a provider: redirect to it (docs/sso.md)",
    access: "public",
    hidden: true,
    query: z.object({ next: Next.optional() }),
  },
});

export const handler = define.handlers(meta, {
  async GET(ctx) {
    const { location, cookie } = await ctx.services.sso.signIn.begin(
      ctx.params.provider,
      ctx.query.next ?? "/",
      redirectUri(ctx),
    );
    setPendingCookie(ctx, cookie);
    return externalRedirect(location);
  },
});
