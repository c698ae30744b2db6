/**
 * Seals TOTP secrets at rest with AES-256-GCM under a key kept in the
 * store's `meta` table (meta_secret.ts). The key lives in the same database,
 * so this does not stop someone holding a whole dump; it keeps the secrets
 * out of anything that reads or copies `user_totp` rows alone (exports,
 * support queries, a leaked table), and binds each sealed secret to its
 * user (the user id is the additional data), so a row copied onto another
 * user does not open.
 */
import type { MetaRepo } from "../system/meta_repo.ts";
import { metaSecret } from "./meta_secret.ts";

const META_KEY = "totp_seal_key";

const b64 = (b: Uint8Array) => btoa(String.fromCharCode(...b));
const unb64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

export class TotpSealer {
  private constructor(private readonly key: CryptoKey) {}

  /** The sealer over the store's key, created on first use. */
  static async open(meta: MetaRepo): Promise<TotpSealer> {
    const raw = await metaSecret(meta, META_KEY, 32);
    const key = await crypto.subtle.importKey("raw", new Uint8Array(raw), "AES-GCM", false, [
      "encrypt",
      "decrypt",
    ]);
    return new TotpSealer(key);
  }

  async seal(userId: string, secret: Uint8Array<ArrayBuffer>): Promise<string> {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const ct = await crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(userId) },
      this.key,
      secret,
    );
    return `v1.${b64(iv)}.${b64(new Uint8Array(ct))}`;
  }

  async open(userId: string, sealed: string): Promise<Uint8Array<ArrayBuffer>> {
    const [version, iv, ct] = sealed.split(".");
    if (version !== "v1" || !iv || !ct) throw new Error("Unknown sealed TOTP secret format");
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: unb64(iv), additionalData: new TextEncoder().encode(userId) },
      this.key,
      unb64(ct),
    );
    return new Uint8Array(plain);
  }
}
