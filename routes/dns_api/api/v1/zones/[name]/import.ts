/**
 * Zone file import. The router decodes only JSON and forms, and a zone file
 * is most naturally sent as itself (`curl --data-binary @example.com.zone`),
 * so `meta` declares no `body` (it documents them as `documentedBody`) and
 * the handler reads it: either JSON
 * `{zone_file | content, replace?}` or the raw master file as text/dns or
 * text/plain (then `?replace=true` selects replace). Both under the 1 MiB
 * request limit.
 */
import {
  ImportBodies,
  ImportJsonInput,
  ImportQuery,
  ImportResultSchema,
} from "@/lib/dns/schema.ts";
import { ValidationError } from "@/lib/errors.ts";
import { decodeBody, readLimited, validate } from "@/server/http/request_body.ts";
import { requireScope } from "@/server/listeners/dns_api/key_scope.ts";
import { define } from "@/server/listeners/dns_api/context.ts";

export const meta = define.meta({
  POST: {
    summary:
      "Load an RFC 1035 master file: raw text/dns or text/plain body (?replace=true), or JSON {zone_file | content, replace?}; creates the zone from its SOA when missing",
    access: "operator",
    query: ImportQuery,
    documentedBody: ImportBodies,
    response: ImportResultSchema,
  },
});

const RAW_TYPES = new Set(["text/dns", "text/plain", "application/dns", "text/x-dns-zone"]);

async function readZoneText(req: Request): Promise<{ text: string; replace?: boolean }> {
  const type = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type === "application/json") {
    const body = validate(ImportJsonInput, (await decodeBody(req)).value, "body");
    return { text: (body.zone_file ?? body.content)!, replace: body.replace };
  }
  if (!RAW_TYPES.has(type)) {
    await req.body?.cancel();
    throw new ValidationError(
      `Content-Type "${type}" is not accepted: send the zone file as text/dns or text/plain, or JSON {"zone_file": "…"}`,
    );
  }
  const bytes = await readLimited(req);
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    throw new ValidationError("The zone file is not valid UTF-8");
  }
}

export const handler = define.handlers(meta, {
  async POST(ctx) {
    await requireScope(ctx, { access: "write", zone: ctx.params.name, allRecords: true });
    const { text, replace } = await readZoneText(ctx.req);
    if (text.trim() === "") throw new ValidationError("The zone file is empty");
    return await ctx.services.dns.importZone(ctx.auth.user.username, ctx.params.name, text, {
      replace: replace ?? ctx.query.replace ?? false,
    });
  },
});
