/**
 * Which URLs a webhook may call (docs/webhooks.md, "Which URLs are allowed"):
 * http or https, no credentials in the URL, and a host whose every address is
 * neither loopback, link-local, unspecified nor multicast, unless
 * PALISADE_WEBHOOK_ALLOW_LOCAL is set. Private ranges (10/8, 192.168/16,
 * fc00::/7, …) are allowed: receivers on the operator's own network are the
 * common case, while loopback reaches Palisade's own listeners and
 * link-local reaches cloud metadata services. The host is resolved again
 * before every attempt, so a name that later resolves elsewhere (DNS
 * rebinding) is refused then.
 */
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { ValidationError } from "../errors.ts";

export const URL_MAX = 2000;

/** The URL of `raw` when its form is allowed; ValidationError (field `url`) otherwise. */
export function parseWebhookUrl(raw: string): URL {
  const text = raw.trim();
  if (text === "" || text.length > URL_MAX) {
    throw new ValidationError(`URL must be 1 to ${URL_MAX} characters`, "url");
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ValidationError(`"${text}" is not a URL`, { field: "url", code: "invalid_url" });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ValidationError(`URL scheme "${url.protocol.slice(0, -1)}" is not http or https`, {
      field: "url",
      code: "url_scheme",
    });
  }
  if (url.username !== "" || url.password !== "") {
    throw new ValidationError("URL must not carry credentials", {
      field: "url",
      code: "url_credentials",
    });
  }
  url.hash = "";
  return url;
}

/** The four bytes of a dotted IPv4 address. */
function v4Bytes(ip: string): number[] {
  return ip.split(".").map(Number);
}

function localV4(ip: string): string | null {
  const [a, b] = v4Bytes(ip);
  if (a === 127) return "loopback";
  if (a === 169 && b === 254) return "link-local";
  if (a === 0) return "unspecified";
  if (a >= 224) return "multicast or reserved";
  return null;
}

/** The first 16 bits of an IPv6 address, and its IPv4 tail when it maps one. */
function v6Parts(ip: string): { head: number; mapped: string | null; all: string } {
  const lower = ip.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower)?.[1] ?? null;
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  const tail = hexMapped
    ? [parseInt(hexMapped[1], 16), parseInt(hexMapped[2], 16)]
      .flatMap((w) => [w >> 8, w & 255]).join(".")
    : mapped;
  const first = lower.startsWith("::") ? 0 : parseInt(lower.split(":")[0], 16);
  return { head: first, mapped: tail, all: lower };
}

function localV6(ip: string): string | null {
  const { head, mapped, all } = v6Parts(ip);
  if (mapped) return localV4(mapped);
  if (all === "::1") return "loopback";
  if (all === "::") return "unspecified";
  if ((head & 0xffc0) === 0xfe80) return "link-local";
  if ((head & 0xff00) === 0xff00) return "multicast";
  return null;
}

/** Why `ip` may not be a target without PALISADE_WEBHOOK_ALLOW_LOCAL; null when it may. */
export function localKind(ip: string): string | null {
  const bare = ip.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const family = isIP(bare);
  if (family === 4) return localV4(bare);
  // The URL parser's form (compressed, lower case), so `0:0:0:0:0:0:0:1` is `::1`.
  if (family === 6) return localV6(new URL(`http://[${bare}]/`).hostname.slice(1, -1));
  return "not an address";
}

export type Resolver = (host: string) => Promise<string[]>;

/** The addresses the system resolver gives (the same one fetch uses, /etc/hosts included). */
export const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Resolves the URL's host and refuses it when any address is local (unless
 * `allowLocal`) or none is found; ValidationError (field `url`). Answers the
 * addresses checked, so the caller can connect to one of them.
 */
export async function checkTarget(
  url: URL,
  allowLocal: boolean,
  resolve: Resolver = systemResolver,
): Promise<string[]> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) {
      throw new ValidationError(`Host "${host}" does not resolve`, {
        field: "url",
        code: "url_unresolvable",
      });
    }
  }
  if (allowLocal) return addresses;
  for (const ip of addresses) {
    const kind = localKind(ip);
    if (kind) {
      throw new ValidationError(
        `Host "${host}" resolves to ${kind} address "${ip}"; set PALISADE_WEBHOOK_ALLOW_LOCAL to allow it`,
        { field: "url", code: "url_local_address" },
      );
    }
  }
  return addresses;
}
