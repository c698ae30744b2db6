/**
 * The expiry and quota fields (docs/peer_lifecycle.md), shared by the new
 * peer form and the peer's limits form, and how their values become the
 * limits service's input.
 */
import { z } from "zod";
import { Field } from "@/components/form_fields.tsx";
import { ValidationError } from "@/lib/errors.ts";
import type { LimitsInput, LimitsView } from "@/lib/tunnel/lifecycle/limits_service.ts";
import { type FormState, formText } from "@/server/http/form.ts";

const MIB = 1024 * 1024;

/** The fields as posted. */
export const LIMITS_FIELDS = {
  expires_at: formText(64),
  quota_mib: formText(32),
  period_days: formText(8),
};

export const LIMITS_FIELD_NAMES = Object.keys(LIMITS_FIELDS);

/** The service's field names as the form names them. */
export const LIMITS_ALIASES = { quota_bytes: "quota_mib", quota_period_days: "period_days" };

type Values = Record<keyof typeof LIMITS_FIELDS, string>;

export type LimitsBody = z.infer<z.ZodObject<typeof LIMITS_FIELDS>>;

/** The stored limits as form values. */
export function limitsValuesOf(l: LimitsView): Values {
  return {
    expires_at: l.expires_at ?? "",
    quota_mib: l.quota_bytes === null ? "" : String(l.quota_bytes / MIB),
    period_days: l.quota_period_days === null ? "" : String(l.quota_period_days),
  };
}

/** Whether any of the fields was filled in. */
export const anyLimit = (v: Values) =>
  [v.expires_at, v.quota_mib, v.period_days].some((x) => x.trim() !== "");

/** The form's values as the service's input: an empty field clears its limit. */
export function limitsInputOf(v: Values): LimitsInput {
  const expires = v.expires_at.trim();
  const mib = v.quota_mib.trim();
  const days = v.period_days.trim();
  if (mib !== "" && !(Number(mib) > 0)) {
    throw new ValidationError(`Enter a number of MiB above 0, not "${mib}"`, "quota_mib");
  }
  if (days !== "" && !/^\d+$/.test(days)) {
    throw new ValidationError(`Enter a whole number of days, not "${days}"`, "period_days");
  }
  // A date alone is midnight UTC.
  const iso = /^\d{4}-\d{2}-\d{2}$/.test(expires) ? `${expires}T00:00:00Z` : expires;
  if (iso !== "" && Number.isNaN(Date.parse(iso))) {
    throw new ValidationError(`Enter an ISO 8601 time or a date, not "${expires}"`, "expires_at");
  }
  return {
    expires_at: iso === "" ? null : iso,
    quota_bytes: mib === "" ? null : Math.round(Number(mib) * MIB),
    quota_period_days: days === "" ? null : Number(days),
  };
}

/** The three fields. */
export function LimitsFields({ form }: { form: FormState }) {
  return (
    <>
      <Field
        form={form}
        name="expires_at"
        label="Expires at"
        help="ISO 8601 time or a date (midnight UTC); empty: never. The peer is disabled then."
      />
      <Field
        form={form}
        name="quota_mib"
        label="Quota (MiB per period)"
        inputMode="numeric"
        help="Received plus sent; empty: no quota. Reaching it disables the peer until the next period."
      />
      <Field
        form={form}
        name="period_days"
        label="Quota period (days)"
        inputMode="numeric"
        help="Empty: the calendar month in UTC; N: every N days from now."
      />
    </>
  );
}
