/**
 * Single sign-on (docs/sso.md): the redirect to the provider (authorization
 * code with PKCE S256, `state`, `nonce`; pending.ts) and the callback: state
 * checked, code exchanged, ID token verified (id_token.ts), role taken from
 * the mapped claim, the user found by issuer and subject or created on the
 * first sign-in, and a session issued like the password login's.
 */
import type { AuditLog } from "../../audit/audit.ts";
import type { Clock } from "../../clock.ts";
import { ConflictError, ForbiddenError } from "../../errors.ts";
import type { AsyncTransactor } from "../../store/async_transactor.ts";
import type { ClientMeta } from "../auth.ts";
import { hashPassword } from "../password.ts";
import { type Role, ROLES } from "../roles.ts";
import { randomToken, safeEqual } from "../secret.ts";
import type { SessionService } from "../sessions.ts";
import type { UserRepo } from "../user_repo.ts";
import type { Discovery } from "./discovery.ts";
import { exchangeCode, refused, userInfo, verifyIdToken } from "./id_token.ts";
import type { OidcLogout } from "./logout.ts";
import type { OidcProviderRecord, OidcRepo } from "./oidc_repo.ts";
import { challengeOf, newPending, openPending, sealPending } from "./pending.ts";
import type { OidcProviders } from "./providers.ts";
import type { SealedBox } from "../sealed_box.ts";

/** What the provider sent back to the callback. */
export interface CallbackQuery {
  state?: string;
  code?: string;
  error?: string;
}

/** The highest role any of the claim's values maps to; null when none does. */
export function roleOf(claim: unknown, map: Record<string, Role>): Role | null {
  const values = Array.isArray(claim) ? claim : [claim];
  const roles = values.filter((v) => typeof v === "string" && Object.hasOwn(map, v))
    .map((v) => map[v as string]);
  return [...ROLES].reverse().find((r) => roles.includes(r)) ?? null;
}

/** A user name from the claims: [A-Za-z0-9._@-], at most 48 characters. */
function baseName(claims: Record<string, unknown>, sub: string): string {
  const pick = [claims.preferred_username, claims.email, `sso-${sub}`]
    .find((v) => typeof v === "string" && v.trim()) as string;
  return pick.replace(/[^A-Za-z0-9._@-]/g, "-").slice(0, 48) || "sso-user";
}

export class OidcSignIn {
  constructor(
    private readonly providers: OidcProviders,
    private readonly repo: OidcRepo,
    private readonly users: UserRepo,
    private readonly sessions: SessionService,
    private readonly transactor: AsyncTransactor,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
    private readonly discovery: Discovery,
    private readonly box: SealedBox,
    private readonly logout: OidcLogout,
  ) {}

  /** The provider's authorization URL and the sealed pending-login cookie value. */
  async begin(
    providerId: string,
    next: string,
    redirectUri: string,
  ): Promise<{ location: string; cookie: string }> {
    const p = await this.providers.client(providerId);
    const doc = await this.discovery.get(p.issuer);
    const pending = newPending(p.id, next, this.clock);
    const url = new URL(doc.authorization_endpoint);
    for (
      const [k, v] of Object.entries({
        response_type: "code",
        client_id: p.clientId,
        redirect_uri: redirectUri,
        scope: p.scopes,
        state: pending.state,
        nonce: pending.nonce,
        code_challenge: await challengeOf(pending.verifier),
        code_challenge_method: "S256",
      })
    ) url.searchParams.set(k, v);
    return { location: url.href, cookie: await sealPending(this.box, pending) };
  }

  /** Completes the sign-in; throws UnauthorizedError/ForbiddenError with a message for the page. */
  async finish(
    cookie: string | undefined,
    q: CallbackQuery,
    redirectUri: string,
    client: ClientMeta,
  ): Promise<{ cookie: string; logout: string; next: string; userId: string }> {
    const pending = await openPending(this.box, cookie, this.clock);
    if (!pending) throw refused("The sign-in has expired or did not start here; start it again");
    if (!q.state || !safeEqual(q.state, pending.state)) {
      throw refused("The sign-in's state does not match; start it again");
    }
    if (q.error) throw refused(`The identity provider refused the sign-in ("${q.error}")`);
    if (!q.code) throw refused("The identity provider sent no authorization code");
    const p = await this.providers.client(pending.provider);
    const doc = await this.discovery.get(p.issuer);
    const tokens = await exchangeCode(doc, p, q.code, pending.verifier, redirectUri);
    const idClaims = await verifyIdToken(
      this.discovery,
      doc,
      p,
      tokens.idToken,
      pending.nonce,
      this.clock,
    );
    const claims: Record<string, unknown> = idClaims[p.claim] === undefined && tokens.accessToken
      ? { ...(await userInfo(doc, tokens.accessToken, idClaims.sub)), ...idClaims }
      : idClaims;
    const role = roleOf(claims[p.claim], p.roleMap);
    if (!role) {
      await this.audit.add({
        actor: "anonymous",
        event_type: "auth.login_failed",
        message: `Single sign-on through "${p.id}" refused: no "${p.claim}" value maps to a role`,
        resource_type: "sso_provider",
        resource_id: p.id,
      });
      throw new ForbiddenError(
        `Your account at ${p.displayName} has no "${p.claim}" value that maps to a Palisade role`,
        { code: "sso_no_role" },
      );
    }
    const userId = await this.#signIn(p, idClaims.sub, claims, role, client).catch((err) => {
      // A first sign-in of the same identity committed on another instance
      // meanwhile: its user exists now, and the second run signs in as it.
      if (err instanceof ConflictError) return this.#signIn(p, idClaims.sub, claims, role, client);
      throw err;
    });
    const session = await this.sessions.create(userId, client);
    const logout = await this.logout.ticket(session.id, p.id, tokens.idToken);
    return { cookie: session.cookie, logout, next: pending.next, userId };
  }

  /** The user of the identity (created on first sign-in, role kept in step); its id. */
  async #signIn(
    p: OidcProviderRecord,
    sub: string,
    claims: Record<string, unknown>,
    role: Role,
    client: ClientMeta,
  ): Promise<string> {
    // Hashed before the transaction (scrypt is slow); nobody knows this password.
    const unusable = await hashPassword(randomToken(32));
    const base = baseName(claims, sub);
    const email = typeof claims.email === "string" ? claims.email.slice(0, 256) : "";
    return await this.transactor.tx(async () => {
      const now = this.clock.now();
      const linked = await this.repo.identity(p.issuer, sub);
      let user = linked && await this.users.byId(linked.userId);
      if (!user) {
        const id = crypto.randomUUID();
        const username = await this.#freeName(base, p.id);
        await this.users.insert({
          id,
          username,
          email,
          role,
          passwordHash: unusable,
          createdAt: now,
        });
        await this.repo.link({
          issuer: p.issuer,
          subject: sub,
          userId: id,
          providerId: p.id,
          createdAt: now,
        });
        await this.audit.add({
          actor: `sso:${p.id}`,
          event_type: "user.created",
          message:
            `Created user "${username}" with role "${role}" on first sign-in through "${p.id}"`,
          resource_type: "user",
          resource_id: id,
        });
        user = (await this.users.byId(id))!;
      } else if (user.role !== role && !(await this.#lastAdministrator(user.role))) {
        await this.users.setRole(user.id, role, now);
        await this.audit.add({
          actor: `sso:${p.id}`,
          event_type: "user.role_changed",
          message:
            `Changed the role of "${user.username}" from "${user.role}" to "${role}" from its "${p.claim}" claim`,
          resource_type: "user",
          resource_id: user.id,
        });
      }
      await this.users.setLastLogin(user.id, now);
      await this.audit.add({
        actor: user.username,
        event_type: "auth.sso_login",
        message: `Signed in through "${p.id}" from ${client.address}`,
        resource_type: "user",
        resource_id: user.id,
      });
      return user.id;
    });
  }

  /** Never demotes the last administrator: the provider's groups may change under us. */
  async #lastAdministrator(current: Role): Promise<boolean> {
    return current === "administrator" && (await this.users.countWithRole("administrator")) <= 1;
  }

  /** `base`, else `base.<provider>`, else with a random suffix: a local user's name is never taken over. */
  async #freeName(base: string, providerId: string): Promise<string> {
    for (const name of [base, `${base}.${providerId}`]) {
      if (!(await this.users.byUsername(name))) return name;
    }
    return `${base}.${providerId}-${randomToken(4).replace(/[^A-Za-z0-9]/g, "x")}`;
  }
}
