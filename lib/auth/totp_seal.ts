/**
 * Seals TOTP secrets at rest (sealed_box.ts), each bound to its user (the
 * user id is the additional data), so a row copied onto another user does
 * not open.
 */
import type { MetaRepo } from "../system/meta_repo.ts";
import { SealedBox } from "./sealed_box.ts";

const META_KEY = "totp_seal_key";

export class TotpSealer {
  private constructor(private readonly box: SealedBox) {}

  /** The sealer over the store's key, created on first use. */
  static async open(meta: MetaRepo): Promise<TotpSealer> {
    return new TotpSealer(await SealedBox.open(meta, META_KEY));
  }

  seal(userId: string, secret: Uint8Array<ArrayBuffer>): Promise<string> {
    return this.box.sealBytes(userId, secret);
  }

  async open(userId: string, sealed: string): Promise<Uint8Array<ArrayBuffer>> {
    const secret = await this.box.unsealBytes(userId, sealed);
    if (!secret) throw new Error("A sealed TOTP secret did not open");
    return secret;
  }
}
