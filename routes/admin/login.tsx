import { z } from "zod";
import { doneQuery, noticeFor, NOTICES } from "@/components/notices.ts";
import { Notice } from "@/components/notice.tsx";
import { DomainError } from "@/lib/errors.ts";
import { page, type PageProps } from "@/server/http/define.ts";
import { mapError } from "@/server/http/errors.ts";
import { clientMeta, setSessionCookie } from "@/server/http/session_cookie.ts";
import { define } from "@/server/listeners/admin/context.ts";
import { LOGIN_BODY_LIMIT } from "@/server/http/request_body.ts";

// Checked again by ctx.redirect(), which only follows paths on this origin.
// deno-lint-ignore no-control-regex -- control characters are what this refuses
const Next = z.string().regex(/^\/(?![\/\\])[^\\\x00-\x1f\x7f]*$/).max(2000).catch("/");

export const meta = define.meta({
  GET: {
    summary: "Sign-in page",
    access: "public",
    query: z.object({ next: Next.optional(), done: doneQuery(NOTICES.login) }),
  },
  POST: {
    summary: "Sign in from the form",
    access: "public",
    maxBodyBytes: LOGIN_BODY_LIMIT,
    body: z.object({
      username: z.string().max(256),
      password: z.string().max(1024),
      next: Next.optional(),
    }),
  },
});

interface Data {
  next: string;
  username: string;
  error?: string;
  notice?: string | null;
}

export const handler = define.handlers(meta, {
  GET(ctx) {
    ctx.state.title = "Sign in";
    const next = ctx.query.next ?? "/";
    if (ctx.auth) return ctx.redirect(next);
    return page<Data>({ next, username: "", notice: noticeFor(NOTICES.login, ctx.query.done) });
  },
  async POST(ctx) {
    ctx.state.title = "Sign in";
    const next = ctx.body.next ?? "/";
    try {
      const { cookie } = await ctx.services.auth.login(
        ctx.body.username,
        ctx.body.password,
        clientMeta(ctx),
      );
      setSessionCookie(ctx, cookie);
      return ctx.redirect(next);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      const { status, message, headers } = mapError(err);
      for (const [k, v] of Object.entries(headers)) ctx.headers.set(k, v);
      return page<Data>({ next, username: ctx.body.username, error: message }, { status });
    }
  },
});

export default function Login({ data }: PageProps<Data>) {
  return (
    <main id="main" class="login">
      <h1>Palisade</h1>
      <Notice message={data.notice} />
      <form method="post" action="/login" class="card stack" novalidate>
        <input type="hidden" name="next" value={data.next} />
        <label>
          Username
          <input
            name="username"
            autocomplete="username"
            required
            value={data.username}
            aria-invalid={data.error ? "true" : undefined}
            aria-describedby={data.error ? "login-error" : undefined}
          />
        </label>
        <label>
          Password
          <input
            name="password"
            type="password"
            autocomplete="current-password"
            required
            aria-invalid={data.error ? "true" : undefined}
            aria-describedby={data.error ? "login-error" : undefined}
          />
        </label>
        {data.error && <p id="login-error" class="field-error" role="alert">{data.error}</p>}
        <button type="submit" class="primary">Sign in</button>
      </form>
    </main>
  );
}
