/**
 * A software WebAuthn authenticator for tests that run without a browser:
 * one ES256 (P-256) discoverable credential, answering registration options
 * with a "none" attestation and request options with a signed assertion, as
 * a CTAP2 authenticator would (authenticator data, CBOR, DER signature).
 * The browser tests use Chromium's own virtual authenticator instead.
 */
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { toBase64Url as b64url } from "../../lib/bytes.ts";

type Cbor = number | string | Uint8Array | Map<number | string, Cbor>;

function head(major: number, n: number): number[] {
  if (n < 24) return [(major << 5) | n];
  if (n < 256) return [(major << 5) | 24, n];
  return [(major << 5) | 25, n >> 8, n & 0xff];
}

/** The few CBOR forms WebAuthn needs: small integers, byte and text strings, maps. */
function cbor(v: Cbor): number[] {
  if (typeof v === "number") return v >= 0 ? head(0, v) : head(1, -1 - v);
  if (typeof v === "string") {
    const b = new TextEncoder().encode(v);
    return [...head(3, b.length), ...b];
  }
  if (v instanceof Uint8Array) return [...head(2, v.length), ...v];
  return [...head(5, v.size), ...[...v].flatMap(([k, x]) => [...cbor(k), ...cbor(x)])];
}

const cat = (...parts: (Uint8Array | number[])[]) => Uint8Array.from(parts.flatMap((p) => [...p]));
const u32 = (n: number) => [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const sha256 = async (b: Uint8Array<ArrayBuffer>) =>
  new Uint8Array(await crypto.subtle.digest("SHA-256", b));

/** An ECDSA signature as DER, from WebCrypto's r||s. */
function der(raw: Uint8Array): Uint8Array {
  const int = (x: Uint8Array) => {
    let i = 0;
    while (i < x.length - 1 && x[i] === 0) i++;
    const v = x.slice(i);
    return v[0] & 0x80 ? [0x02, v.length + 1, 0, ...v] : [0x02, v.length, ...v];
  };
  const body = [...int(raw.slice(0, 32)), ...int(raw.slice(32))];
  return Uint8Array.from([0x30, body.length, ...body]);
}

export class SoftAuthenticator {
  /** The signature counter the next assertion carries (tests may set it back). */
  counter = 0;
  userHandle = "";

  private constructor(
    private readonly keys: CryptoKeyPair,
    readonly credentialId: Uint8Array<ArrayBuffer>,
  ) {}

  static async create(): Promise<SoftAuthenticator> {
    const keys = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, [
      "sign",
      "verify",
    ]) as CryptoKeyPair;
    return new SoftAuthenticator(keys, crypto.getRandomValues(new Uint8Array(16)));
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  #clientData(type: string, challenge: string, origin: string): Uint8Array<ArrayBuffer> {
    const json = JSON.stringify({ type, challenge, origin, crossOrigin: false });
    return new TextEncoder().encode(json);
  }

  async register(
    o: PublicKeyCredentialCreationOptionsJSON,
    origin: string,
  ): Promise<RegistrationResponseJSON> {
    this.userHandle = o.user.id;
    const raw = new Uint8Array(await crypto.subtle.exportKey("raw", this.keys.publicKey));
    const cose = new Map<number, Cbor>([[1, 2], [3, -7], [-1, 1], [-2, raw.slice(1, 33)], [
      -3,
      raw.slice(33),
    ]]);
    const authData = cat(
      await sha256(new TextEncoder().encode(o.rp.id!)),
      [0x45], // user present, user verified, attested credential data
      u32(this.counter),
      new Uint8Array(16),
      [0, this.credentialId.length],
      this.credentialId,
      cbor(cose),
    );
    const attestation = cbor(
      new Map<string, Cbor>([["fmt", "none"], ["attStmt", new Map()], ["authData", authData]]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(this.#clientData("webauthn.create", o.challenge, origin)),
        attestationObject: b64url(Uint8Array.from(attestation)),
        transports: ["internal"],
      },
      clientExtensionResults: {},
    };
  }

  async assert(
    o: PublicKeyCredentialRequestOptionsJSON,
    origin: string,
  ): Promise<AuthenticationResponseJSON> {
    this.counter++;
    const clientData = this.#clientData("webauthn.get", o.challenge, origin);
    const authData = cat(
      await sha256(new TextEncoder().encode(o.rpId!)),
      [0x05],
      u32(this.counter),
    );
    const signed = cat(authData, await sha256(clientData));
    const sig = new Uint8Array(
      await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, this.keys.privateKey, signed),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(der(sig)),
        userHandle: this.userHandle,
      },
      clientExtensionResults: {},
    };
  }
}
