/**
 * Text signed with HMAC-SHA-256 under a key kept in the store's `meta`
 * table (meta_secret.ts): `<body>.<mac>`, the MAC in base64url. What a
 * stateless ticket needs (login_ticket.ts, passkey/challenges.ts): any
 * instance on the same database signs and checks it, nothing is written.
 */
import { toBase64Url } from "../bytes.ts";
import type { MetaRepo } from "../system/meta_repo.ts";
import { metaSecret } from "./meta_secret.ts";
import { safeEqual } from "./secret.ts";

export class HmacSigner {
  private constructor(private readonly key: CryptoKey) {}

  /** The signer whose key is the `meta` secret `name` (made on first use). */
  static async open(meta: MetaRepo, name: string): Promise<HmacSigner> {
    const raw = new Uint8Array(await metaSecret(meta, name, 32));
    const hmac = { name: "HMAC", hash: "SHA-256" };
    return new HmacSigner(await crypto.subtle.importKey("raw", raw, hmac, false, ["sign"]));
  }

  async #mac(body: string): Promise<string> {
    const mac = await crypto.subtle.sign("HMAC", this.key, new TextEncoder().encode(body));
    return toBase64Url(new Uint8Array(mac));
  }

  /** `body` with its MAC appended after a dot. */
  async sign(body: string): Promise<string> {
    return `${body}.${await this.#mac(body)}`;
  }

  /** The body of a text `sign()` made under this key; null for anything else. */
  async open(text: string): Promise<string | null> {
    const dot = text.lastIndexOf(".");
    if (dot < 0) return null;
    const body = text.slice(0, dot);
    return safeEqual(text.slice(dot + 1), await this.#mac(body)) ? body : null;
  }
}
