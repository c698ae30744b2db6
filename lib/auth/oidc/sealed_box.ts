/**
 * AES-256-GCM under a key kept in the store's `meta` table (meta_secret.ts),
 * like totp_seal.ts: the providers' client secrets at rest (bound to the
 * provider id as additional data, so a secret copied onto another provider
 * does not open) and the pending sign-in cookie (pending.ts), which every
 * instance on the same database can open.
 */
import type { MetaRepo } from "../../system/meta_repo.ts";
import { metaSecret } from "../meta_secret.ts";
import { fromBase64Url, toBase64Url } from "../../bytes.ts";

const enc = new TextEncoder();

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

  async seal(context: string, plain: string): Promise<string> {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const ct = await crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: enc.encode(context) },
      this.key,
      enc.encode(plain),
    );
    return `v1.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(ct))}`;
  }

  /** The plain text, or null when `sealed` is malformed, tampered with or of another context. */
  async unseal(context: string, sealed: string): Promise<string | null> {
    const [version, iv, ct] = sealed.split(".");
    if (version !== "v1" || !iv || !ct) return null;
    try {
      const plain = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv: fromBase64Url(iv), additionalData: enc.encode(context) },
        this.key,
        fromBase64Url(ct),
      );
      return new TextDecoder().decode(plain);
    } catch {
      return null;
    }
  }
}
