import { Check, TextArea } from "@/components/form_fields.tsx";
import type { FormState } from "@/server/http/form.ts";

/** File, paste area and replace switch of the zone-file import forms (zones list and zone page). */
export function ZoneImportFields({ form, help }: { form: FormState; help?: string }) {
  return (
    <>
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
    </>
  );
}
