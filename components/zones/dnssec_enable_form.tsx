/**
 * The enable-DNSSEC form of the zone page's DNSSEC panel: algorithm and, for
 * RSA only, the key size; what a submission does and how a refusal lands
 * next to `algorithm` or `key_size` (the service's fields, as the API names
 * them).
 */
import { z } from "zod";
import { Field, Select } from "@/components/form_fields.tsx";
import { FormActions, PostForm } from "@/components/post_form.tsx";
import { DEFAULT_ALGORITHM, KEY_SIZES, parseAlgorithm } from "@/lib/dns/dnssec/algorithms.ts";
import { ALGORITHM_NAMES, type DnssecAlgorithm } from "@/lib/dns/dnssec/types.ts";
import type { DnssecKey } from "@/lib/dns/dns_service.ts";
import { formFailure, type FormState, formText, optionalInt } from "@/server/http/form.ts";
import type { SignedInContext } from "@/server/listeners/admin/context.ts";

/** The form's fields as posted. */
export const DnssecEnableBody = z.object({ algorithm: formText(32), key_size: formText(16) });

type Values = z.infer<typeof DnssecEnableBody>;

const FIELDS = Object.keys(DnssecEnableBody.shape);

/** The default first (RFC 8624's choice), RSA last: it is there for old validators. */
const CHOICES = ([13, 15, 8] as const).map((c): [string, string] => [
  ALGORITHM_NAMES[c],
  `${ALGORITHM_NAMES[c]} (${c})`,
]);

const RSA = KEY_SIZES[8];

/** Whether the algorithm's keys come in more than one size (RSA): only then is key_size used. */
const sized = (a: DnssecAlgorithm) => KEY_SIZES[a].min !== KEY_SIZES[a].max;

/**
 * The form's first values: the algorithm of the zone's kept keys, if any, so
 * enabling again reuses them (and a DS left at the registrar is valid again).
 */
export function dnssecEnableValues(kept: DnssecKey[]): Record<string, string> {
  return { algorithm: kept[0]?.algorithm ?? ALGORITHM_NAMES[DEFAULT_ALGORITHM], key_size: "" };
}

/**
 * Enables DNSSEC with the chosen algorithm; the key size is sent only for an
 * algorithm that takes one, as the field is hidden or marked RSA-only for the
 * others. Returns the zone's page with its notice.
 */
export async function enableDnssec(
  ctx: SignedInContext,
  zone: string,
  values: Values,
): Promise<string> {
  const given = values.algorithm.trim() || undefined;
  const key_size = sized(parseAlgorithm(given)) ? optionalInt(values, "key_size") : undefined;
  await ctx.services.dns.setDnssec(ctx.auth.user.username, zone, {
    enable: true,
    algorithm: given,
    key_size,
  });
  return `/zones/${encodeURIComponent(zone)}?done=dnssec_enabled`;
}

/** A refused enable as form state: next to `algorithm` or `key_size`, else above the form. */
export function dnssecEnableFailure(err: unknown, values: Values) {
  return formFailure(err, values, FIELDS);
}

/** The enable form, for operators; `kept` are the keys a disabled zone still has. */
export function DnssecEnableForm({ form, kept }: { form: FormState; kept: DnssecKey[] }) {
  return (
    <PostForm
      form={form}
      action="dnssec"
      class="card form-grid dnssec-enable"
      labelledBy="dnssec-enable"
    >
      <h3 id="dnssec-enable" class="wide">Enable DNSSEC</h3>
      <p class="help wide">
        A key-signing key (KSK) and a zone-signing key (ZSK) sign the zone. ECDSAP256SHA256 suits
        nearly every validator; RSASHA256 is for the few that lack it.
      </p>
      <Select
        form={form}
        name="algorithm"
        label="Algorithm"
        idPrefix="ds"
        options={CHOICES}
        help={kept[0] && `The zone's ${kept[0].algorithm} keys are kept: choosing it reuses them.`}
      />
      {/* Hidden by the stylesheet unless RSASHA256 is chosen; without that, the hint says it. */}
      <div class="rsa-only">
        <Field
          form={form}
          name="key_size"
          label="RSA key size"
          inputMode="numeric"
          placeholder={String(RSA.default)}
          idPrefix="ds"
          help={`Bits, ${RSA.min} to ${RSA.max} (default ${RSA.default}). Used for RSASHA256 only.`}
        />
      </div>
      <FormActions label="Enable DNSSEC" />
    </PostForm>
  );
}
