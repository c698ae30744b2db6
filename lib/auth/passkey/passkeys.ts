/**
 * Passkeys (WebAuthn) for the dashboard: registering one for the signed-in
 * user, listing, renaming and deleting them, and checking an assertion, as
 * the only credential (a discoverable credential, usernameless) or as the
 * second step after the password. Verification is `@simplewebauthn/server`'s;
 * challenges are signed and taken once (challenges.ts). The public key and
 * credential id are stored but never listed, logged or audited.
 * docs/security.md, "Passkeys".
 */
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import type { AuditLog } from "../../audit/audit.ts";
import type { Clock } from "../../clock.ts";
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError } from "../../errors.ts";
import type { AsyncTransactor } from "../../store/async_transactor.ts";
import type { AuthUser } from "../user.ts";
import { fromBase64Url, toBase64Url } from "../../bytes.ts";
import { type ChallengePurpose, type PasskeyChallenges } from "./challenges.ts";
import type { PasskeyRecord, PasskeyRepo } from "./passkey_repo.ts";

/** The relying party a ceremony runs for: its RP ID (a host name) and the page origin. */
export interface RelyingParty {
  id: string;
  origin: string;
}

/** What the Security page shows of a passkey: never its key or credential id. */
export interface PasskeyInfo {
  id: string;
  name: string;
  transports: string[];
  created_at: number;
  last_used_at: number | null;
}

const RP_NAME = "Palisade";
export const PASSKEY_NAME_MAX = 64;

const info = (p: PasskeyRecord): PasskeyInfo => ({
  id: p.id,
  name: p.name,
  transports: p.transports,
  created_at: p.createdAt,
  last_used_at: p.lastUsedAt,
});

/** The refusal of any assertion that does not sign in: one message, whatever the cause. */
export function passkeyRefused(): UnauthorizedError {
  return new UnauthorizedError("The passkey was not accepted", {
    field: "passkey",
    code: "passkey_invalid",
  });
}

/** The challenge a browser answered, from its clientDataJSON; "" when unreadable. */
function answeredChallenge(clientDataJSON: unknown): string {
  try {
    const data = JSON.parse(new TextDecoder().decode(fromBase64Url(String(clientDataJSON))));
    return typeof data?.challenge === "string" ? data.challenge : "";
  } catch {
    return "";
  }
}

export class PasskeyService {
  constructor(
    private readonly repo: PasskeyRepo,
    private readonly transactor: AsyncTransactor,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
    private readonly challenges: PasskeyChallenges,
  ) {}

  async list(userId: string): Promise<PasskeyInfo[]> {
    return (await this.repo.list(userId)).map(info);
  }

  /** True when the user registered at least one passkey (it counts as a second factor). */
  async has(userId: string): Promise<boolean> {
    return (await this.repo.count(userId)) > 0;
  }

  /** Options for navigator.credentials.create(): a discoverable credential for `user`. */
  async registrationOptions(
    user: AuthUser,
    rp: RelyingParty,
  ): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const challenge = await this.challenges.issue("register", user.id);
    return await generateRegistrationOptions({
      rpName: RP_NAME,
      rpID: rp.id,
      userName: user.username,
      userID: new TextEncoder().encode(user.id),
      challenge: challenge.bytes,
      attestationType: "none",
      excludeCredentials: (await this.repo.list(user.id)).map((p) => ({ id: p.credentialId })),
      authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
    });
  }

  /** Verifies a new credential answering a registration challenge of `user` and stores it. */
  async register(
    user: AuthUser,
    name: string,
    response: RegistrationResponseJSON,
    rp: RelyingParty,
  ): Promise<PasskeyInfo> {
    const expectedChallenge = await this.#take(response.response?.clientDataJSON, "register");
    if (expectedChallenge?.userId !== user.id) throw registrationRefused();
    let verified;
    try {
      verified = await verifyRegistrationResponse({
        response,
        expectedChallenge: expectedChallenge.answered,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        requireUserVerification: false,
      });
    } catch {
      throw registrationRefused();
    }
    if (!verified.verified) throw registrationRefused();
    const { credential } = verified.registrationInfo;
    const record: PasskeyRecord = {
      id: crypto.randomUUID(),
      userId: user.id,
      name,
      credentialId: credential.id,
      publicKey: toBase64Url(credential.publicKey),
      counter: credential.counter,
      transports: credential.transports ?? [],
      createdAt: this.clock.now(),
      lastUsedAt: null,
    };
    await this.transactor.tx(async () => {
      if (!(await this.repo.add(record))) {
        throw new ConflictError("This passkey is already registered", {
          field: "passkey",
          code: "passkey_exists",
        });
      }
      await this.audit.add({
        actor: user.username,
        event_type: "auth.passkey_added",
        message: `Added passkey "${name}"`,
        resource_type: "user",
        resource_id: user.id,
      });
    });
    return info(record);
  }

  async rename(user: AuthUser, id: string, name: string): Promise<void> {
    await this.transactor.tx(async () => {
      if (!(await this.repo.rename(user.id, id, name))) throw passkeyNotFound(id);
      await this.audit.add({
        actor: user.username,
        event_type: "auth.passkey_renamed",
        message: `Renamed a passkey to "${name}"`,
        resource_type: "user",
        resource_id: user.id,
      });
    });
  }

  async remove(user: AuthUser, id: string): Promise<void> {
    const name = (await this.repo.list(user.id)).find((p) => p.id === id)?.name;
    await this.transactor.tx(async () => {
      if (!(await this.repo.remove(user.id, id))) throw passkeyNotFound(id);
      await this.audit.add({
        actor: user.username,
        event_type: "auth.passkey_removed",
        message: `Deleted passkey "${name ?? id}"`,
        resource_type: "user",
        resource_id: user.id,
      });
    });
  }

  /**
   * Options for navigator.credentials.get(): sign-in without a password (no
   * `userId`), or the second step of `userId`. Every passkey registered here
   * is discoverable, so no credential id is named: a page shown after the
   * password alone discloses none.
   */
  async loginOptions(
    rp: RelyingParty,
    userId?: string,
  ): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const challenge = await this.challenges.issue(userId ? "second" : "login", userId ?? "");
    return await generateAuthenticationOptions({
      rpID: rp.id,
      challenge: challenge.bytes,
      userVerification: userId ? "preferred" : "required",
    });
  }

  /**
   * Checks an assertion and records the use: the id of the user it signs
   * in. Without a password (`userId` absent) the authenticator must have
   * verified the user; as the second step the passkey must be `userId`'s.
   * Throws UnauthorizedError (passkey_invalid) for anything else.
   */
  async authenticate(
    response: AuthenticationResponseJSON,
    rp: RelyingParty,
    userId?: string,
  ): Promise<string> {
    const purpose = userId ? "second" : "login";
    const taken = await this.#take(response.response?.clientDataJSON, purpose);
    const passkey = taken && typeof response.id === "string"
      ? await this.repo.byCredentialId(response.id)
      : undefined;
    if (!taken || !passkey || taken.userId !== (userId ?? "")) throw passkeyRefused();
    if (userId !== undefined && passkey.userId !== userId) throw passkeyRefused();
    const handle = response.response.userHandle;
    if (handle && handle !== toBase64Url(new TextEncoder().encode(passkey.userId))) {
      throw passkeyRefused();
    }
    let newCounter: number;
    try {
      const v = await verifyAuthenticationResponse({
        response,
        expectedChallenge: taken.answered,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        credential: {
          id: passkey.credentialId,
          publicKey: fromBase64Url(passkey.publicKey),
          counter: passkey.counter,
        },
        requireUserVerification: userId === undefined,
      });
      if (!v.verified) throw passkeyRefused();
      newCounter = v.authenticationInfo.newCounter;
    } catch {
      throw passkeyRefused();
    }
    const used = await this.transactor.tx(() =>
      this.repo.use(passkey.id, passkey.counter, newCounter, this.clock.now())
    );
    if (!used) throw passkeyRefused();
    return passkey.userId;
  }

  /**
   * Takes the challenge answered in `clientDataJSON` once, when it is
   * genuine, unexpired and for `purpose`: its user and its base64url form.
   */
  async #take(
    clientDataJSON: unknown,
    purpose: ChallengePurpose,
  ): Promise<{ userId: string; answered: string } | null> {
    const answered = answeredChallenge(clientDataJSON);
    const c = answered && await this.challenges.verify(answered, purpose);
    if (!c) return null;
    const fresh = await this.transactor.tx(() =>
      this.repo.takeChallenge(c.hash, c.expiresAt, this.clock.now())
    );
    return fresh ? { userId: c.userId, answered } : null;
  }
}

/** 403, not 422: the request is well formed, the answer is refused for what it is. */
function registrationRefused(): ForbiddenError {
  return new ForbiddenError("The passkey could not be registered; try again", {
    field: "passkey",
    code: "passkey_invalid",
  });
}

function passkeyNotFound(id: string): NotFoundError {
  return new NotFoundError(`No passkey "${id}"`, { code: "passkey_not_found" });
}
