/**
 * Reading and validating request input at the edge: a size limit enforced
 * while streaming (not only from Content-Length), JSON or form decoding, and
 * zod errors turned into a 400 that names the field.
 */
import type { z } from "zod";
import {
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ValidationError,
} from "../../lib/errors.ts";
import type { BodyKind } from "./define.ts";

export const KiB = 1024;
export const MiB = 1024 * KiB;

/** The request body limit of a route that declares none (`meta.maxBodyBytes`). */
export const BODY_LIMIT = MiB;

/** The body limit of the sign-in routes: a username, a password and a redirect target. */
export const LOGIN_BODY_LIMIT = 16 * KiB;

/** Throws 413 when the declared length is over the limit, before anything is read. */
export function checkDeclaredLength(req: Request, limit = BODY_LIMIT): void {
  const len = Number(req.headers.get("content-length") ?? "0");
  if (len > limit) throw new PayloadTooLargeError(`Request body is larger than ${limit} bytes`);
}

/** Reads the body, failing with 413 as soon as it exceeds `limit`. */
export async function readLimited(req: Request, limit = BODY_LIMIT): Promise<Uint8Array> {
  checkDeclaredLength(req, limit);
  if (!req.body) return new Uint8Array();
  // A declared length under the limit is read in one call (the common case, and
  // much cheaper than a chunk loop); hyper refuses bodies longer than declared.
  if (req.headers.has("content-length")) return new Uint8Array(await req.arrayBuffer());
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new PayloadTooLargeError(`Request body is larger than ${limit} bytes`);
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let off = 0;
  for (const c of chunks) {
    all.set(c, off);
    off += c.byteLength;
  }
  return all;
}

/** What kind of body a media type (lower case, without parameters) is, or null for any other. */
function kindOf(type: string): BodyKind | null {
  if (type === "application/json" || /^application\/[\w.+-]+\+json$/.test(type)) return "json";
  if (type === "application/x-www-form-urlencoded" || type === "multipart/form-data") {
    return "form";
  }
  return null;
}

/** Refuses (415) a body whose media type is not one of `accepts`. */
function checkMediaType(type: string, given: string | null, accepts: readonly BodyKind[]): void {
  const kind = kindOf(type);
  if (kind && accepts.includes(kind)) return;
  const want = accepts.map((k) => k === "json" ? "application/json" : "a form").join(" or ");
  throw new UnsupportedMediaTypeError(
    given
      ? `Content-Type "${given}" is not accepted here; send ${want}`
      : `Send the body as ${want} with its Content-Type`,
  );
}

/** A decoded body. */
export interface DecodedBody {
  value: unknown;
}

/**
 * Decodes a JSON or form body (at most `limit` bytes) into a plain value for
 * schema validation; with `accepts`, a body of another media type (or none
 * declared) is refused with 415 before it is read.
 */
export async function decodeBody(
  req: Request,
  limit = BODY_LIMIT,
  accepts?: readonly BodyKind[],
): Promise<DecodedBody> {
  const given = req.headers.get("content-type");
  // The common case is compared as it is, without taking the header apart.
  const type = given === "application/json"
    ? given
    : (given ?? "").split(";")[0].trim().toLowerCase();
  if (accepts) checkMediaType(type, given, accepts);
  if (type === "multipart/form-data") return { value: await decodeMultipart(req, limit) };
  // A declared length under the limit is read in one native call.
  checkDeclaredLength(req, limit);
  const text = req.headers.has("content-length")
    ? await req.text()
    : new TextDecoder().decode(await readLimited(req, limit));
  if (type === "application/x-www-form-urlencoded") {
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of new URLSearchParams(text)) {
      const prev = out[k];
      out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
    }
    return { value: out };
  }
  if (text.trim() === "") {
    throw new ValidationError("Request body is empty; expected a JSON object");
  }
  try {
    return { value: JSON.parse(text) };
  } catch {
    throw new ValidationError("Request body is not valid JSON");
  }
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let v = input;
  for (const key of path) {
    if (typeof v !== "object" || v === null) return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/** Decodes a multipart form (read under the limit first) into its text fields. */
async function decodeMultipart(req: Request, limit: number): Promise<Record<string, string>> {
  const bytes = await readLimited(req, limit);
  // Re-wrap the bytes already read (under the limit) to reuse the platform's parser.
  const form = await new Request("http://local/", {
    method: "POST",
    headers: req.headers,
    body: bytes as Uint8Array<ArrayBuffer>,
  }).formData();
  const out: Record<string, string> = {};
  for (const [k, v] of form) out[k] = typeof v === "string" ? v : await v.text();
  return out;
}

/** Describes the first zod issue as a sentence naming the field. */
export function describeIssue(
  error: z.ZodError,
  where: "body" | "query",
  input: unknown,
): ValidationError {
  const issue = error.issues[0];
  const path = issue.path.map(String).join(".");
  const detail = issue.message.charAt(0).toLowerCase() + issue.message.slice(1);
  if (!path) return new ValidationError(`Invalid request ${where}: ${detail}`);
  if (valueAt(input, issue.path) === undefined && issue.code !== "custom") {
    return new ValidationError(`Missing field "${path}"`, path);
  }
  if (issue.code === "unrecognized_keys") {
    return new ValidationError(`Unknown field "${issue.keys.join('", "')}" in "${path}"`, path);
  }
  return new ValidationError(`Invalid field "${path}": ${detail}`, path);
}

/** Validates `value` against `schema`; throws a 400 naming the field. */
export function validate<T extends z.ZodType>(
  schema: T,
  value: unknown,
  where: "body" | "query",
): z.output<T> {
  const r = schema.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0];
    if (issue?.code === "unrecognized_keys" && issue.path.length === 0) {
      throw new ValidationError(`Unknown field "${issue.keys[0]}"`, issue.keys[0]);
    }
    throw describeIssue(r.error, where, value);
  }
  return r.data;
}
