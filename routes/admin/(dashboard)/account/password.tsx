import { z } from "zod";
import { Field } from "@/components/form_fields.tsx";
import { Page } from "@/components/page.tsx";
import { FormActions, FormSection } from "@/components/post_form.tsx";
import { zodRefusal } from "@/components/refusal.ts";
import { PasswordChangeInput } from "@/lib/auth/schema.ts";
import { PASSWORD_MIN } from "@/lib/auth/password.ts";
import { UnprocessableError } from "@/lib/errors.ts";
import type { PageProps } from "@/server/http/define.ts";
import { page } from "@/server/http/define.ts";
import { emptyForm, formFailure, type FormState, formText } from "@/server/http/form.ts";
import { clientMeta, dropSessionCookie, requireSession } from "@/server/http/session_cookie.ts";
import { define } from "@/server/listeners/admin/context.ts";

const Body = z.object({
  current_password: formText(1024),
  new_password: formText(1024),
  repeat_password: formText(1024),
});
const FIELDS = Object.keys(Body.shape);
// Passwords are never sent back into the page.
const BLANK = { current_password: "", new_password: "", repeat_password: "" };

export const meta = define.meta({
  GET: { summary: "Change-password page", access: "viewer" },
  POST: {
    summary: "Change one's own password from the form; ends every session of the user",
    access: "viewer",
    body: Body,
  },
});

interface Data {
  form: FormState;
}

export const handler = define.handlers(meta, {
  GET(ctx) {
    ctx.state.title = "Change password";
    return page<Data>({ form: emptyForm() });
  },
  async POST(ctx) {
    ctx.state.title = "Change password";
    requireSession(ctx, "Changing the password");
    const { current_password, new_password, repeat_password } = ctx.body;
    const parsed = PasswordChangeInput.safeParse({ current_password, new_password });
    if (!parsed.success) {
      const { form, status } = zodRefusal(parsed.error, BLANK);
      return page<Data>({ form }, { status });
    }
    try {
      if (repeat_password !== new_password) {
        throw new UnprocessableError("The two new passwords differ", "repeat_password");
      }
      await ctx.services.auth.changePassword(
        ctx.auth.user,
        current_password,
        new_password,
        clientMeta(ctx),
      );
    } catch (err) {
      const { form, status } = formFailure(err, BLANK, FIELDS);
      return page<Data>({ form }, { status });
    }
    dropSessionCookie(ctx);
    return ctx.redirect("/login?done=password");
  },
});

export default function ChangePassword({ data }: PageProps<Data>) {
  const form = data.form;
  return (
    <Page title="Change password">
      <FormSection id="change-password" heading="Your password" form={form} class="card form-grid">
        <p class="muted">
          Changing it ends every session of yours, this one included: you sign in again with the new
          password. API tokens are kept.
        </p>
        <Field
          form={form}
          name="current_password"
          label="Current password"
          type="password"
          required
          autocomplete="current-password"
        />
        <Field
          form={form}
          name="new_password"
          label="New password"
          type="password"
          required
          autocomplete="new-password"
          help={`At least ${PASSWORD_MIN} characters.`}
        />
        <Field
          form={form}
          name="repeat_password"
          label="Repeat the new password"
          type="password"
          required
          autocomplete="new-password"
        />
        <FormActions label="Change password" />
      </FormSection>
    </Page>
  );
}
