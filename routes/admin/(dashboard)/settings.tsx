import { z } from "zod";
import { Page } from "@/components/page.tsx";
import { fieldsRefusal } from "@/components/refusal.ts";
import { roleAtLeast } from "@/lib/auth/roles.ts";
import { DomainError } from "@/lib/errors.ts";
import type { Setting } from "@/lib/settings/settings.ts";
import { defineHandlers, defineMeta, page, type PageProps } from "@/server/http/define.ts";
import { mapError } from "@/server/http/errors.ts";

export const meta = defineMeta({
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

/** Thrown inside the transaction to undo the fields already saved. */
class Rollback extends Error {}

interface Data {
  settings: Setting[];
  canEdit: boolean;
  values: Record<string, string>;
  errors: Record<string, string>;
  saved: boolean;
}

export const handler = defineHandlers(meta, {
  GET(ctx) {
    ctx.state.title = "Settings";
    const settings = ctx.state.services.settings.list();
    return page<Data>({
      settings,
      canEdit: roleAtLeast(ctx.state.auth!.user.role, "administrator"),
      values: Object.fromEntries(settings.map((s) => [s.key, s.value])),
      errors: {},
      saved: ctx.query.saved === "1",
    });
  },
  POST(ctx) {
    ctx.state.title = "Settings";
    const { settings, store } = ctx.state.services;
    const actor = ctx.state.auth!.user.username;
    const current = settings.list();
    const errors: Record<string, string> = {};
    // All fields or none: each put is a savepoint inside one transaction.
    try {
      store.tx(() => {
        for (const s of current) {
          const value = s.key === "wireguard.server_endpoint_enabled"
            ? (ctx.body[s.key] === "true" ? "true" : "false")
            : (ctx.body[s.key] ?? "").trim();
          if (value === s.value || (value === "" && s.value === "")) continue;
          try {
            settings.put({ key: s.key, value, is_secret: s.is_secret }, actor);
          } catch (err) {
            if (!(err instanceof DomainError)) throw err;
            errors[s.key] = mapError(err).message;
          }
        }
        if (Object.keys(errors).length) throw new Rollback();
      });
    } catch (err) {
      if (!(err instanceof Rollback)) throw err;
      const { form, status } = fieldsRefusal(ctx.body, errors);
      return page<Data>({ settings: current, canEdit: true, ...form, saved: false }, { status });
    }
    return ctx.redirect("/settings?saved=1");
  },
});

const LABELS: Record<string, string> = {
  "wireguard.server_host": "Public host",
  "wireguard.server_port": "Public port",
  "wireguard.server_endpoint_enabled": "Put this endpoint in client configurations",
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
  return (
    <Page header={<h1>Settings</h1>} notice={data.saved ? "Settings saved." : null}>
      {data.canEdit
        ? (
          <form method="post" class="card stack" aria-label="WireGuard endpoint">
            <h2>WireGuard endpoint</h2>
            {data.settings.map(field)}
            <button type="submit" class="primary">Save</button>
          </form>
        )
        : (
          // Read-only for other roles: values in disabled fields, and no form to submit.
          <section class="card stack" aria-label="WireGuard endpoint">
            <h2>WireGuard endpoint</h2>
            {data.settings.map(field)}
            <p class="muted">Only administrators can change settings.</p>
          </section>
        )}
    </Page>
  );
}
