import { z } from "zod";
import { Page } from "@/components/page.tsx";
import LiveRegion from "@/islands/LiveRegion.tsx";
import { roleAtLeast } from "@/lib/auth/roles.ts";
import { FieldErrors } from "@/lib/errors.ts";
import type { Setting } from "@/lib/settings/settings.ts";
import { page, type PageProps } from "@/server/http/define.ts";
import { mapError } from "@/server/http/errors.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "Settings page",
    access: "viewer",
    query: z.object({ saved: z.string().optional() }),
  },
  POST: {
    summary: "Save settings from the form",
    access: "administrator",
    body: z.record(z.string(), z.string().max(4096)),
  },
});

interface Data {
  settings: Setting[];
  canEdit: boolean;
  values: Record<string, string>;
  errors: Record<string, string>;
  saved: boolean;
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    ctx.state.title = "Settings";
    const settings = await ctx.services.settings.list();
    return page<Data>({
      settings,
      canEdit: roleAtLeast(ctx.auth.user.role, "administrator"),
      values: Object.fromEntries(settings.map((s) => [s.key, s.value])),
      errors: {},
      saved: ctx.query.saved === "1",
    });
  },
  async POST(ctx) {
    ctx.state.title = "Settings";
    const { settings } = ctx.services;
    const current = await settings.list();
    const values = Object.fromEntries(current.map((s) => [
      s.key,
      s.key === "wireguard.server_endpoint_enabled"
        ? (ctx.body[s.key] === "true" ? "true" : "false")
        : (ctx.body[s.key] ?? "").trim(),
    ]));
    try {
      // All fields or none (SettingsService.putAll).
      await settings.putAll(values, ctx.auth.user.username);
    } catch (err) {
      if (!(err instanceof FieldErrors)) throw err;
      const { status } = mapError(err);
      return page<Data>(
        { settings: current, canEdit: true, values: ctx.body, errors: err.errors, saved: false },
        { status },
      );
    }
    return ctx.redirect("/settings?saved=1");
  },
});

const LABELS: Record<string, string> = {
  "wireguard.server_host": "Public host",
  "wireguard.server_port": "Public port",
  "wireguard.server_endpoint_enabled": "Put this endpoint in client configurations",
  "auth.two_factor_roles": "Roles that must use two-factor sign-in",
};

export default function Settings({ data }: PageProps<Data>) {
  const field = (s: Setting) => {
    const id = `f-${s.key.replace(/\W/g, "-")}`;
    const err = data.errors[s.key];
    const describedBy = [`${id}-help`, err ? `${id}-error` : ""].filter(Boolean).join(" ");
    if (s.key === "wireguard.server_endpoint_enabled") {
      return (
        <div class="field">
          <label class="check">
            <input
              type="checkbox"
              id={id}
              name={s.key}
              value="true"
              checked={(data.values[s.key] || "true") === "true"}
              disabled={!data.canEdit}
              aria-describedby={describedBy}
            />
            {LABELS[s.key]}
          </label>
          <p id={`${id}-help`} class="help">{s.description}</p>
          {err && <p id={`${id}-error`} class="field-error" role="alert">{err}</p>}
        </div>
      );
    }
    return (
      <div class="field">
        <label for={id}>{LABELS[s.key] ?? s.key}</label>
        <input
          id={id}
          name={s.key}
          value={data.values[s.key] ?? ""}
          readOnly={!data.canEdit}
          inputMode={s.key.endsWith("port") ? "numeric" : undefined}
          aria-invalid={err ? "true" : undefined}
          aria-describedby={describedBy}
        />
        <p id={`${id}-help`} class="help">
          {s.description} <code>{s.key}</code>
        </p>
        {err && <p id={`${id}-error`} class="field-error" role="alert">{err}</p>}
      </div>
    );
  };
  // Live: the card is rendered again on `SettingsChanged`, unless a field has been edited.
  const header = (
    <div class="row spread">
      <h1>Settings</h1>
      <LiveRegion region="settings-card" on={[{ type: "SettingsChanged" }]} />
    </div>
  );
  return (
    <Page header={header} notice={data.saved ? "Settings saved." : null}>
      {data.canEdit
        ? (
          <form method="post" class="card stack" aria-label="WireGuard endpoint" id="settings-card">
            <h2>WireGuard endpoint</h2>
            {data.settings.map(field)}
            <button type="submit" class="primary">Save</button>
          </form>
        )
        : (
          // Read-only for other roles: values in disabled fields, and no form to submit.
          <section class="card stack" aria-label="WireGuard endpoint" id="settings-card">
            <h2>WireGuard endpoint</h2>
            {data.settings.map(field)}
            <p class="muted">Only administrators can change settings.</p>
          </section>
        )}
    </Page>
  );
}
