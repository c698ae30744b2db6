import { z } from "zod";
import { doneQuery, noticeFor, NOTICES } from "@/components/notices.ts";
import { Notice } from "@/components/notice.tsx";
import { DomainError } from "@/lib/errors.ts";
import { passkeyRefused } from "@/lib/auth/passkey/passkeys.ts";
import type { WebauthnSettings } from "@/lib/config/webauthn_options.ts";
import { page, type PageProps } from "@/server/http/define.ts";
import { mapError } from "@/server/http/errors.ts";
import { clientMeta, setSessionCookie } from "@/server/http/session_cookie.ts";
import { define } from "@/server/listeners/admin/context.ts";
import { LOGIN_BODY_LIMIT } from "@/server/http/request_body.ts";
import { SECURITY_PAGE } from "@/server/http/two_factor_gate.ts";
import { SsoButtons, type SsoChoices, ssoChoices } from "@/components/sso_buttons.tsx";
import { relyingParty } from "@/server/http/relying_party.ts";
import PasskeyForm from "@/islands/PasskeyForm.tsx";
import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import { type SecondStepChoices, secondStepChoices } from "@/lib/auth/passkey/second_step.ts";
import type { AuthenticationResponseJSON } from "@simplewebauthn/server";

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
      /** A passkey's assertion (JSON), instead of the password or as the second step. */
      credential: z.string().max(16_384).optional(),
    }),
  },
});

interface Data {
  next: string;
  username: string;
  /** Set on the second step (login_ticket.ts). */
  ticket?: string;
  /** What the second step offers: a code field, a passkey. */
  choices?: SecondStepChoices;
  /** The first step's "Sign in with a passkey" options. */
  passkeyLogin?: PublicKeyCredentialRequestOptionsJSON;
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
      passkeyLogin: await ctx.services.auth.passkeys.loginOptions(rpOf(ctx)),
    });
  },
  async POST(ctx) {
    ctx.state.title = "Sign in";
    const next = ctx.body.next ?? "/";
    const { auth } = ctx.services;
    const code = ctx.body.totp_code?.trim() || undefined;
    const rp = rpOf(ctx);
    const passkey = ctx.body.credential
      ? { response: assertion(ctx.body.credential), rp }
      : undefined;
    try {
      const result = ctx.body.ticket
        ? await auth.loginWithTicket(ctx.body.ticket, { totpCode: code, passkey }, clientMeta(ctx))
        : passkey
        ? await auth.loginWithPasskey(passkey.response, rp, clientMeta(ctx))
        // A user whose role requires 2FA but who has none signs in to its Security page only.
        : await auth.loginStep(ctx.body.username, ctx.body.password, clientMeta(ctx), {
          totpCode: code,
          allowEnrolment: true,
        });
      if ("ticket" in result) {
        const choices = await secondStepChoices(auth, result.ticket, rp) ?? undefined;
        return page<Data>({ next, username: ctx.body.username, ticket: result.ticket, choices });
      }
      setSessionCookie(ctx, result.cookie);
      if (await auth.twoFactor.enrolmentRequired(result.user)) return ctx.redirect(SECURITY_PAGE);
      return ctx.redirect(next);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      const { status, message, headers } = mapError(err);
      for (const [k, v] of Object.entries(headers)) ctx.headers.set(k, v);
      const codeError = err.field === "totp_code";
      // A wrong code or passkey keeps the second step; an expired ticket goes back to the password.
      const again = codeError || err.field === "passkey";
      const ticket = ctx.body.ticket && again ? ctx.body.ticket : undefined;
      const choices = ticket ? await secondStepChoices(auth, ticket, rp) ?? undefined : undefined;
      const passkeyLogin = ticket ? undefined : await auth.passkeys.loginOptions(rp);
      return page<Data>(
        {
          next,
          username: ctx.body.username,
          error: message,
          codeError,
          ticket,
          choices,
          passkeyLogin,
          sso: await ssoChoices(ctx.services.sso),
        },
        { status },
      );
    }
  },
});

/** The relying party passkeys answer for on this request. */
function rpOf(ctx: { services: { config: { webauthn: WebauthnSettings } }; req: Request }) {
  return relyingParty(ctx.services.config.webauthn, ctx.req);
}

/** The posted assertion: malformed JSON is refused like a wrong passkey. */
function assertion(json: string): AuthenticationResponseJSON {
  try {
    const v = JSON.parse(json);
    if (v && typeof v === "object" && v.response && typeof v.response === "object") return v;
  } catch {
    // refused below
  }
  throw passkeyRefused();
}

/** The second step: the code of a user whose password was right (the ticket says so). */
function CodeStep({ data }: { data: Data }) {
  const totp = data.choices?.totp ?? true;
  return (
    <div class="card stack">
      {totp && <CodeForm data={data} />}
      {!totp && data.error && <p id="login-error" class="field-error" role="alert">{data.error}</p>}
      {data.choices?.passkey && (
        <PasskeyForm
          id="second-passkey"
          mode="login"
          options={data.choices.passkey}
          action="/login"
          fields={{
            next: data.next,
            username: data.username,
            password: "",
            ticket: data.ticket ?? "",
          }}
          label="Use a passkey"
        />
      )}
    </div>
  );
}

function CodeForm({ data }: { data: Data }) {
  return (
    <form method="post" action="/login" class="stack" novalidate>
      <input type="hidden" name="next" value={data.next} />
      <input type="hidden" name="username" value={data.username} />
      <input type="hidden" name="ticket" value={data.ticket} />
      {/* The ticket stands for the password; the body still names the field. */}
      <input type="hidden" name="password" value="" />
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
      {data.ticket ? <CodeStep data={data} /> : (
        <>
          {(data.sso?.passwordEnabled ?? true)
            ? <PasswordStep data={data} />
            : data.error && <p class="field-error" role="alert">{data.error}</p>}
          <PasskeyStep data={data} />
          {data.sso && <SsoButtons choices={data.sso} next={data.next} />}
        </>
      )}
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

/** Sign-in without a password: a discoverable passkey that verified its user. */
function PasskeyStep({ data }: { data: Data }) {
  if (!data.passkeyLogin) return null;
  return (
    <section class="card stack" aria-labelledby="passkey-heading">
      <h2 id="passkey-heading">Or use a passkey</h2>
      <PasskeyForm
        id="passkey-login"
        mode="login"
        options={data.passkeyLogin}
        action="/login"
        fields={{ next: data.next, username: "", password: "" }}
        label="Sign in with a passkey"
      />
    </section>
  );
}
