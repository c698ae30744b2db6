/**
 * What the PowerDNS differential test takes out before comparing Palisade's
 * answers with PowerDNS's (the list is in pdns_differential_test.ts's header
 * and in docs/dns.md): serials, the SOA's MNAME, the server's version, the
 * order of RRsets, records and export lines, and the text of error messages.
 */

export interface Answer {
  status: number;
  /** The JSON body, or the text when it is not JSON. */
  body: unknown;
  json: boolean;
}

/** A response as an Answer. */
export async function answerOf(res: Response): Promise<Answer> {
  const text = await res.text();
  try {
    return { status: res.status, body: text ? JSON.parse(text) : null, json: true };
  } catch {
    return { status: res.status, body: text, json: false };
  }
}

/** An SOA's content with the MNAME and the serial taken out. */
export function soaShape(content: string): string {
  const f = content.trim().split(/\s+/);
  return [`<mname>`, f[1], "<serial>", ...f.slice(3)].join(" ");
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

type Json = Record<string, unknown>;

function normalizeRRset(s: Json): Json {
  const records = (s.records as Json[]).map((r) => ({
    ...r,
    content: s.type === "SOA" ? soaShape(r.content as string) : r.content,
  }));
  records.sort((a, b) => cmp(String(a.content), String(b.content)));
  return { ...s, records };
}

function normalizeObject(o: Json): Json {
  const out: Json = { ...o };
  for (const k of ["serial", "edited_serial"]) if (typeof out[k] === "number") out[k] = "<serial>";
  if (out.type === "Server" && typeof out.version === "string") out.version = "<version>";
  if (Array.isArray(out.rrsets)) {
    out.rrsets = (out.rrsets as Json[]).map(normalizeRRset).sort((a, b) =>
      cmp(String(a.name), String(b.name)) || cmp(String(a.type), String(b.type))
    );
  }
  return out;
}

/** A successful JSON body with what legitimately differs taken out. */
export function normalizeBody(body: unknown): unknown {
  if (Array.isArray(body)) {
    return body.map((e) => (e && typeof e === "object" ? normalizeObject(e as Json) : e));
  }
  if (body && typeof body === "object") return normalizeObject(body as Json);
  return body;
}

/** An export's lines, SOA shaped, sorted. */
export function normalizeExport(text: string): string[] {
  return text.split("\n").filter((l) => l.trim() !== "").map((l) => {
    const f = l.split("\t");
    return f[3] === "SOA" ? [...f.slice(0, 4), soaShape(f.slice(4).join("\t"))].join("\t") : l;
  }).sort();
}

/**
 * What two answers are compared on: the status and the normalized body; for
 * an error, that the body is `{"error": <text>}` (PowerDNS's wording is its
 * own), or only the status where PowerDNS answers plain text (4.7's 401, 404
 * and 409).
 */
export function comparable(a: Answer, pdnsJson: boolean): unknown {
  if (a.status >= 400) {
    const shaped = a.json && a.body && typeof a.body === "object" &&
      Object.keys(a.body).join() === "error" && typeof (a.body as Json).error === "string";
    return pdnsJson
      ? { status: a.status, body: shaped ? "{error}" : a.body }
      : { status: a.status };
  }
  return { status: a.status, body: a.json ? normalizeBody(a.body) : a.body };
}
