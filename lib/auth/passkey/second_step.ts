/**
 * What the dashboard's second sign-in step offers the user a ticket names
 * (login_ticket.ts): a code field when TOTP is on, a passkey button (with
 * its options) when a passkey is registered.
 */
import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import type { AuthService } from "../auth.ts";
import type { RelyingParty } from "./passkeys.ts";

export interface SecondStepChoices {
  totp: boolean;
  passkey?: PublicKeyCredentialRequestOptionsJSON;
}

/** The choices of the ticket's user; null when the ticket is not (or no longer) valid. */
export async function secondStepChoices(
  auth: AuthService,
  ticket: string,
  rp: RelyingParty,
): Promise<SecondStepChoices | null> {
  const userId = await auth.ticketUser(ticket);
  if (!userId) return null;
  return {
    totp: await auth.twoFactor.isEnabled(userId),
    passkey: (await auth.passkeys.has(userId))
      ? await auth.passkeys.loginOptions(rp, userId)
      : undefined,
  };
}
