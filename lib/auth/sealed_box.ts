/**
 * AES-256-GCM under a key kept in the store's `meta` table (meta_secret.ts).
 * The key lives in the same database, so this does not stop someone holding
 * a whole dump; it keeps secrets out of anything that reads or copies rows
 * alone (exports, support queries, a leaked table) and out of cookies'
 * readers. Each value is bound to a context (the additional data: a user
 * id, a provider id, a cookie's purpose), so a value copied into another
 * context does not open. Users: TOTP secrets (totp_seal.ts), the providers'
 * client secrets and the single sign-on cookies (oidc/).
 */
import type { MetaRepo } from "../system/meta_repo.ts";
import { metaSecret } from "./meta_secret.ts";
import { fromBase64Url, toBase64Url } from "../bytes.ts";

const enc = new TextEncoder();

/** base64url, or standard base64 as the first TOTP secrets were sealed in. */
const decode = (s: string) => fromBase64Url(s.replace(/\+/g, "-").replace(/\//g, "_"));

export class SealedBox {
  private constructor(private readonly key: CryptoKey) {}

  static async open(meta: MetaRepo, metaKey: string): Promise<SealedBox> {
    const raw = await metaSecret(meta, metaKey, 32);
    const key = await crypto.subtle.importKey("raw", new Uint8Array(raw), "AES-GCM", false, [
      "encrypt",
      "decrypt",
    ]);
    return new SealedBox(key);
  }

  /** `v1.<iv>.<ciphertext>`, both base64url. */
  async sealBytes(context: string, plain: Uint8Array<ArrayBuffer>): Promise<string> {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const ct = await crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: enc.encode(context) },
      this.key,
      plain,
    );
    return `v1.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(ct))}`;
  }

  /** The plain bytes, or null when `sealed` is malformed, tampered with or of another context. */
  async unsealBytes(context: string, sealed: string): Promise<Uint8Array<ArrayBuffer> | null> {
    const [version, iv, ct] = sealed.split(".");
    if (version !== "v1" || !iv || !ct) return null;
    try {
      const plain = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv: decode(iv), additionalData: enc.encode(context) },
        this.key,
        decode(ct),
      );
      return new Uint8Array(plain);
    } catch {
      return null;
    }
  }

  seal(context: string, plain: string): Promise<string> {
    return this.sealBytes(context, enc.encode(plain));
  }

  /** The plain text, or null when `sealed` is malformed, tampered with or of another context. */
  async unseal(context: string, sealed: string): Promise<string | null> {
    const plain = await this.unsealBytes(context, sealed);
    return plain && new TextDecoder().decode(plain);
  }
}
