import { z } from "zod";
import { doneQuery, noticeFor, NOTICES } from "@/components/notices.ts";
import { Page } from "@/components/page.tsx";
import {
  API_KEY_FIELDS,
  ApiKeyBody,
  ApiKeysTable,
  NewApiKeyForm,
  NewApiKeySecret,
} from "@/components/dns_api_keys/api_keys_table.tsx";
import type { ApiKeyInfo, NewApiKeyInput } from "@/lib/dns/api_keys/api_key_service.ts";
import { acmeScope } from "@/lib/dns/api_keys/scope.ts";
import { DomainError } from "@/lib/errors.ts";
import type { PageProps } from "@/server/http/define.ts";
import { page } from "@/server/http/define.ts";
import { emptyForm, formFailure, type FormState } from "@/server/http/form.ts";
import { define, type SignedInContext } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "DNS API keys page: every scoped key of the DNS APIs, and the new-key form",
    access: "administrator",
    query: z.object({ done: doneQuery(NOTICES.apiKeys) }),
  },
  POST: {
    summary:
      "Create a DNS API key from the form (any scope, or the ACME-only preset); the key is only on this answer",
    access: "administrator",
    body: ApiKeyBody,
  },
});

interface Data {
  keys: ApiKeyInfo[];
  form: FormState;
  created: { name: string; key: string } | null;
  notice: string | null;
}

async function load(ctx: SignedInContext, over: Partial<Data> = {}): Promise<Data> {
  ctx.state.title = "DNS API keys";
  return {
    keys: await ctx.services.dnsApiKeys.list(),
    form: emptyForm({ types: "*", names: "*", access: "write" }),
    created: null,
    notice: null,
    ...over,
  };
}

/** A list field: entries separated by commas or spaces; empty or "*" is every one. */
function entries(v: string): string[] | "*" {
  const list = v.split(/[\s,]+/).filter((s) => s !== "");
  return list.length === 0 || (list.length === 1 && list[0] === "*") ? "*" : list;
}

function inputOf(v: z.output<typeof ApiKeyBody>): NewApiKeyInput {
  // An empty zones field is refused by the service rather than read as every zone.
  const zones = v.zones.trim() === "" ? [] : entries(v.zones);
  const access = v.access === "read" ? "read" : "write";
  const scope = v.preset === "acme"
    ? acmeScope(zones)
    : { zones, types: entries(v.types), names: entries(v.names), access } as const;
  return { name: v.name, expires_at: v.expires_at.trim() || null, scope };
}

/** `scope.zones[1]` → `zones`: the form field an error of the service is about. */
function formField(err: unknown): Record<string, string> {
  if (!(err instanceof DomainError) || !err.field) return {};
  return { [err.field]: err.field.replace(/^scope\./, "").replace(/\[\d+\]$/, "") };
}

export const handler = define.handlers(meta, {
  async GET(ctx) {
    return page(await load(ctx, { notice: noticeFor(NOTICES.apiKeys, ctx.query.done) }));
  },
  async POST(ctx) {
    const values = ctx.body;
    try {
      const made = await ctx.services.dnsApiKeys.create(ctx.auth.user.username, inputOf(values));
      // Answered, not redirected: the key exists only in this response.
      return page(await load(ctx, { created: { name: made.name, key: made.key } }));
    } catch (err) {
      const { form, status } = formFailure(err, values, API_KEY_FIELDS, {
        aliases: formField(err),
      });
      return page(await load(ctx, { form }), { status });
    }
  },
});

export default function ApiKeys({ data }: PageProps<Data>) {
  return (
    <Page title="DNS API keys" notice={data.notice}>
      <p>
        Keys for scripts and ACME clients on the DNS APIs (Palisade's and the PowerDNS-compatible
        one), each limited to zones, record types, owner names and read or write. Send a key as{" "}
        <code>X-API-Key</code>.
      </p>
      {data.created && <NewApiKeySecret name={data.created.name} secret={data.created.key} />}
      <ApiKeysTable keys={data.keys} />
      <NewApiKeyForm form={data.form} />
    </Page>
  );
}
