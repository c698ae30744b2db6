/**
 * A siteverify client written only from Cloudflare's published Turnstile
 * documentation ("Validate the token", developers.cloudflare.com/turnstile/
 * get-started/server-side-validation/): a POST of `secret`, `response` and
 * the optional `remoteip` and `idempotency_key`, as
 * application/x-www-form-urlencoded (the docs' curl `--data` example),
 * multipart FormData (their Workers example) or application/json (their
 * JSON example); the answer is JSON with `success`, `error-codes` and, on
 * success, `challenge_ts`, `hostname`, `action`, `cdata`. It knows nothing
 * of Palisade: the URL is the one thing a site changes to switch.
 */

/** The documented answer fields. */
export interface TurnstileResult {
  success: boolean;
  "error-codes": string[];
  challenge_ts?: string;
  hostname?: string;
  action?: string;
  cdata?: string;
  [extra: string]: unknown;
}

export interface VerifyRequest {
  secret: string;
  response: string;
  remoteip?: string;
  idempotency_key?: string;
}

export type Encoding = "urlencoded" | "formdata" | "json";

/** Cloudflare's URL; tests pass the Palisade listener's `/siteverify` instead. */
export const CLOUDFLARE_SITEVERIFY = "https://challenges.cloudflare.com/turnstile/v0/siteverify";

export async function turnstileVerify(
  url: string,
  req: VerifyRequest,
  encoding: Encoding = "urlencoded",
): Promise<TurnstileResult> {
  const fields = Object.entries(req).filter(([, v]) => v !== undefined) as [string, string][];
  let init: RequestInit;
  if (encoding === "json") {
    init = {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(Object.fromEntries(fields)),
    };
  } else if (encoding === "formdata") {
    const form = new FormData();
    for (const [k, v] of fields) form.append(k, v);
    init = { method: "POST", body: form };
  } else {
    // A URLSearchParams body is sent as application/x-www-form-urlencoded, like curl --data.
    init = { method: "POST", body: new URLSearchParams(fields) };
  }
  const res = await fetch(url, init);
  // The docs: always JSON; a verifier that gets anything else treats it as a failure.
  const result = await res.json() as TurnstileResult;
  if (typeof result.success !== "boolean" || !Array.isArray(result["error-codes"])) {
    throw new Error(`Not a siteverify answer: ${JSON.stringify(result)}`);
  }
  return result;
}
