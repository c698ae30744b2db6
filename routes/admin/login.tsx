import { z } from "zod";
import { doneQuery, noticeFor, NOTICES } from "@/components/notices.ts";
import { Notice } from "@/components/notice.tsx";
import { DomainError } from "@/lib/errors.ts";
import { page, type PageProps } from "@/server/http/define.ts";
import { mapError } from "@/server/http/errors.ts";
import { clientMeta, setSessionCookie } from "@/server/http/session_cookie.ts";
import { define } from "@/server/listeners/admin/context.ts";
import { LOGIN_BODY_LIMIT } from "@/server/http/request_body.ts";
import { SECURITY_PAGE } from "@/server/http/two_factor_gate.ts";
import { SsoButtons, type SsoChoices, ssoChoices } from "@/components/sso_buttons.tsx";

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
      totp_code: z.string().max(64).optional(),
      next: Next.optional(),
      ticket: z.string().max(512).optional(),
    }),
  },
});

interface Data {
  next: string;
  username: string;
  /** Set on the second step (login_ticket.ts). */
  ticket?: string;
  error?: string;
  /** The error is about the two-factor code (missing or wrong). */
  codeError?: boolean;
  notice?: string | null;
  /** Single sign-on (docs/sso.md): the enabled providers, and whether the password form is on. */
  sso?: SsoChoices;
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    ctx.state.title = "Sign in";
    const next = ctx.query.next ?? "/";
    if (ctx.auth) return ctx.redirect(next);
    return page<Data>({
      next,
      username: "",
      notice: noticeFor(NOTICES.login, ctx.query.done),
      sso: await ssoChoices(ctx.services.sso),
    });
  },
  async POST(ctx) {
    ctx.state.title = "Sign in";
    const next = ctx.body.next ?? "/";
    const { auth } = ctx.services;
    const code = ctx.body.totp_code?.trim() || undefined;
    try {
      const result = ctx.body.ticket
        ? await auth.loginWithTicket(ctx.body.ticket, code ?? "", clientMeta(ctx))
        // A user whose role requires 2FA but who has none signs in to its Security page only.
        : await auth.loginStep(ctx.body.username, ctx.body.password, clientMeta(ctx), {
          totpCode: code,
          allowEnrolment: true,
        });
      if ("ticket" in result) {
        return page<Data>({ next, username: ctx.body.username, ticket: result.ticket });
      }
      setSessionCookie(ctx, result.cookie);
      if (await auth.twoFactor.enrolmentRequired(result.user)) return ctx.redirect(SECURITY_PAGE);
      return ctx.redirect(next);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      const { status, message, headers } = mapError(err);
      for (const [k, v] of Object.entries(headers)) ctx.headers.set(k, v);
      const codeError = err.field === "totp_code";
      // A wrong code keeps the second step; an expired ticket goes back to the password.
      const ticket = ctx.body.ticket && codeError ? ctx.body.ticket : undefined;
      const sso = await ssoChoices(ctx.services.sso);
      return page<Data>(
        { next, username: ctx.body.username, error: message, codeError, ticket, sso },
        { status },
      );
    }
  },
});

/** The second step: the code of a user whose password was right (the ticket says so). */
function CodeStep({ data }: { data: Data }) {
  return (
    <form method="post" action="/login" class="card stack" novalidate>
      <input type="hidden" name="next" value={data.next} />
      <input type="hidden" name="username" value={data.username} />
      <input type="hidden" name="ticket" value={data.ticket} />
      <label>
        Two-factor code
        <input
          name="totp_code"
          inputmode="numeric"
          autocomplete="one-time-code"
          maxlength={64}
          required
          autofocus
          aria-invalid={data.codeError ? "true" : undefined}
          aria-describedby={data.error ? "login-error login-code-help" : "login-code-help"}
        />
        <small id="login-code-help">
          The six digits your authenticator app shows for {data.username}, or a recovery code
        </small>
      </label>
      {data.error && <p id="login-error" class="field-error" role="alert">{data.error}</p>}
      <button type="submit" class="primary">Verify</button>
    </form>
  );
}

export default function Login({ data }: PageProps<Data>) {
  return (
    <main id="main" class="login">
      <h1>Palisade</h1>
      <Notice message={data.notice} />
      {data.ticket
        ? <CodeStep data={data} />
        : (data.sso?.passwordEnabled ?? true)
        ? <PasswordStep data={data} />
        : data.error && <p class="field-error" role="alert">{data.error}</p>}
      {!data.ticket && data.sso && <SsoButtons choices={data.sso} next={data.next} />}
    </main>
  );
}

function PasswordStep({ data }: { data: Data }) {
  return (
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
  );
}
