import { z } from "zod";
import { PENDING_COOKIE } from "@/lib/auth/oidc/pending.ts";
import { DomainError } from "@/lib/errors.ts";
import { getCookie } from "@/server/http/cookies.ts";
import { page, type PageProps } from "@/server/http/define.ts";
import { mapError } from "@/server/http/errors.ts";
import { sameOriginPath } from "@/server/http/context.ts";
import { clientMeta, setSessionCookie } from "@/server/http/session_cookie.ts";
import { redirectUri, setLogoutCookie, setPendingCookie } from "@/server/http/sso.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "Where the identity provider sends the browser back (docs/sso.md)",
    access: "public",
    hidden: true,
    query: z.object({
      state: z.string().max(512).optional(),
      code: z.string().max(4096).optional(),
      error: z.string().max(256).optional(),
    }),
  },
});

interface Data {
  /** Where to go once signed in (a path on this origin). */
  next?: string;
  error?: string;
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    setPendingCookie(ctx, null);
    try {
      const done = await ctx.services.sso.signIn.finish(
        getCookie(ctx.req, PENDING_COOKIE),
        ctx.query,
        redirectUri(ctx),
        clientMeta(ctx),
      );
      setSessionCookie(ctx, done.cookie);
      setLogoutCookie(ctx, done.logout);
      ctx.state.title = "Signed in";
      return page<Data>({ next: sameOriginPath(done.next, ctx.url) });
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      const { status, message } = mapError(err);
      ctx.state.title = "Sign-in refused";
      return page<Data>({ error: message }, { status });
    }
  },
});

/**
 * A page rather than a redirect: the browser arrived from the provider's
 * site, and the session cookie is SameSite=Strict, so only a navigation
 * started here (the refresh below) carries it.
 */
export default function SsoCallback({ data }: PageProps<Data>) {
  if (data.error) {
    return (
      <main id="main" class="login">
        <h1>Sign-in refused</h1>
        <p class="field-error" role="alert">{data.error}</p>
        <p>
          <a href="/login">Back to sign-in</a>
        </p>
      </main>
    );
  }
  return (
    <main id="main" class="login">
      <meta http-equiv="refresh" content={`0;url=${data.next}`} />
      <h1>Signed in</h1>
      <p>
        <a href={data.next}>Continue to the dashboard</a>
      </p>
    </main>
  );
}
