/**
 * Key material as DNS sees it: the DNSKEY RDATA (RFC 4034 §2.1), its key tag
 * (RFC 4034 Appendix B), new KSK/ZSK rows for a zone, and the `SigningKey`
 * the signer gets from a stored key.
 */
import { Buffer } from "node:buffer";
import { generateKey, loadPrivateKey, signerFor } from "./algorithms.ts";
import type { StoredKey } from "./key_repo.ts";
import type { DnssecAlgorithm, KeyType, SigningKey } from "./types.ts";

/** Zone Key (bit 7); a KSK also sets SEP (bit 15) (RFC 4034 §2.1.1). */
export const FLAGS: Record<KeyType, 256 | 257> = { KSK: 257, ZSK: 256 };

/** RFC 4034 §2.1.2: the protocol field is always 3. */
const PROTOCOL = 3;

/** DNSKEY RDATA: flags, protocol 3, algorithm, public key. */
export function dnskeyRdata(flags: number, algorithm: number, publicKey: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + publicKey.length);
  out[0] = flags >> 8;
  out[1] = flags & 255;
  out[2] = PROTOCOL;
  out[3] = algorithm;
  out.set(publicKey, 4);
  return out;
}

/** The DNSKEY RDATA of a stored key. */
export function dnskeyOf(key: Pick<StoredKey, "flags" | "algorithm" | "public_key">): Uint8Array {
  return dnskeyRdata(key.flags, key.algorithm, fromBase64(key.public_key));
}

/**
 * The key tag of DNSKEY RDATA (RFC 4034 Appendix B): the RDATA summed as
 * 16-bit big-endian words, the carry folded in once. Algorithm 1's other rule
 * does not apply: Palisade never makes RSA/MD5 keys.
 */
export function keyTag(rdata: Uint8Array): number {
  let ac = 0;
  for (let i = 0; i < rdata.length; i++) ac += i & 1 ? rdata[i] : rdata[i] << 8;
  ac += (ac >> 16) & 0xffff;
  return ac & 0xffff;
}

/** A new key of `zone`, active from `now` (published and active at once: the zone is new to DNSSEC). */
export async function newKey(
  zone: string,
  keyType: KeyType,
  algorithm: DnssecAlgorithm,
  bits: number,
  now: number,
): Promise<StoredKey> {
  const { publicKey, privateKey } = await generateKey(algorithm, bits);
  const flags = FLAGS[keyType];
  return {
    id: crypto.randomUUID(),
    zone,
    algorithm,
    key_type: keyType,
    bits,
    flags,
    public_key: toBase64(publicKey),
    private_key: toBase64(privateKey),
    key_tag: keyTag(dnskeyRdata(flags, algorithm, publicKey)),
    state: "active",
    created_at: now,
    publish_at: now,
    activate_at: now,
    retire_at: null,
    remove_at: null,
    expires_at: null,
  };
}

/** The signer's view of a stored key; throws when the stored private key cannot be read. */
export function signingKey(row: StoredKey): SigningKey {
  const dnskey = dnskeyOf(row);
  const sign = signerFor(row.algorithm, loadPrivateKey(fromBase64(row.private_key)));
  return { algorithm: row.algorithm, keyTag: keyTag(dnskey), flags: row.flags, dnskey, sign };
}

function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64");
}

function fromBase64(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, "base64"));
}
