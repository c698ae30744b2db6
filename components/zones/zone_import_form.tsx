/**
 * The zone-file import forms (zones list and zone page): file, paste area and
 * replace switch, and what a posted import does.
 */
import type { ComponentChildren } from "preact";
import { z } from "zod";
import { Check, TextArea } from "@/components/form_fields.tsx";
import { FormSection } from "@/components/post_form.tsx";
import type { SignedInContext } from "@/server/listeners/admin/context.ts";
import type { FormState } from "@/server/http/form.ts";

/** The import form's parts as posted: a zone file, pasted or uploaded; the body limit (1 MiB) bounds it. */
export const ImportBody = z.object({
  text: z.string().default(""),
  file: z.string().default(""),
  replace: z.literal("true").optional(),
});

/** Imports the upload, else the pasted text; returns the zone's page reporting the counts. */
export async function importZoneFile(
  ctx: SignedInContext,
  zone: string,
  body: z.infer<typeof ImportBody>,
): Promise<string> {
  const text = body.file.trim() ? body.file : body.text;
  const r = await ctx.services.dns.importZone(ctx.auth.user.username, zone, text, {
    replace: body.replace === "true",
  });
  return `/zones/${encodeURIComponent(r.zone)}?done=imported&added=${r.added}&skipped=${r.skipped}`;
}

/** An import form in its own section; `children` come before the file (the zone's name on the list). */
export function ZoneImportForm(
  { id, heading, form, help, children }: {
    id: string;
    heading: ComponentChildren;
    form: FormState;
    help?: string;
    children?: ComponentChildren;
  },
) {
  return (
    <FormSection id={id} heading={heading} form={form} action="import" class="card stack" multipart>
      {children}
      <div class="field">
        <label for="zi-file">
          File<span class="optional">optional</span>
        </label>
        <input id="zi-file" name="file" type="file" accept=".zone,.txt,.db,text/*" />
      </div>
      <TextArea form={form} name="text" label="…or paste it" rows={6} idPrefix="zi" help={help} />
      <Check
        form={form}
        name="replace"
        label="Replace every record (default: add what is missing)"
        checked={form.values.replace === "true"}
        idPrefix="zi"
      />
      <button type="submit" class="primary">Import</button>
    </FormSection>
  );
}
