/**
 * Bearer JWTs for the DNS API (HS256 via `jose`). The signing secret is
 * generated on first start and kept in the store. Each token carries the
 * user's auth epoch, so a password change ends every token issued before it.
 */
import { errors, jwtVerify, SignJWT } from "jose";
import type { Clock } from "../clock.ts";
import { UnauthorizedError } from "../errors.ts";
import type { MetaRepo } from "../system/meta_repo.ts";
import { metaSecret } from "./meta_secret.ts";
import type { AuthUser } from "./user.ts";
import type { UserService } from "./users.ts";

const ISSUER = "palisade";
const AUDIENCE = "palisade-dns-api";
export const JWT_TTL_SECONDS = 3600;
/** The `meta` key of the HS256 secret. */
const SECRET_KEY = "dns_jwt_secret";

export class JwtService {
  #secret: Uint8Array;

  private constructor(
    private readonly meta: MetaRepo,
    private readonly users: UserService,
    private readonly clock: Clock,
    private readonly ttlSeconds: number,
    secret: Uint8Array,
  ) {
    this.#secret = secret;
  }

  /** The service over the signing secret in `meta` (created there on first use). */
  static async open(
    meta: MetaRepo,
    users: UserService,
    clock: Clock,
    ttlSeconds = JWT_TTL_SECONDS,
  ): Promise<JwtService> {
    const secret = await metaSecret(meta, SECRET_KEY);
    return new JwtService(meta, users, clock, ttlSeconds, secret);
  }

  /** Reads the signing secret again (a restore replaced the store's). */
  async reload(): Promise<void> {
    this.#secret = await metaSecret(this.meta, SECRET_KEY);
  }

  /** Issues a token for `user`; `expires_at` is ISO 8601 UTC. */
  async issue(user: AuthUser): Promise<{ token: string; expires_at: string }> {
    const creds = await this.users.byId(user.id);
    if (!creds) throw new UnauthorizedError("Invalid username or password");
    const iat = Math.floor(this.clock.now() / 1000);
    const exp = iat + this.ttlSeconds;
    const token = await new SignJWT({ ep: creds.authEpoch, role: creds.user.role })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(user.id)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .setJti(crypto.randomUUID())
      .sign(this.#secret);
    return { token, expires_at: new Date(exp * 1000).toISOString() };
  }

  /** The user behind a token; throws UnauthorizedError when invalid, expired or outdated. */
  async verify(token: string): Promise<AuthUser> {
    try {
      const { payload } = await jwtVerify(token, this.#secret, {
        algorithms: ["HS256"],
        issuer: ISSUER,
        audience: AUDIENCE,
        currentDate: new Date(this.clock.now()),
      });
      const creds = payload.sub ? await this.users.byId(payload.sub) : undefined;
      if (!creds || payload.ep !== creds.authEpoch) {
        throw new UnauthorizedError("Token is no longer valid");
      }
      return creds.user;
    } catch (err) {
      if (err instanceof UnauthorizedError) throw err;
      if (err instanceof errors.JWTExpired) throw new UnauthorizedError("Token has expired");
      throw new UnauthorizedError("Invalid token");
    }
  }
}
