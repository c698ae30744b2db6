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

export class JwtService {
  #secret: Uint8Array;

  constructor(
    private readonly meta: MetaRepo,
    private readonly users: UserService,
    private readonly clock: Clock,
    private readonly ttlSeconds = JWT_TTL_SECONDS,
  ) {
    this.#secret = metaSecret(meta, "dns_jwt_secret");
  }

  /** Reads the signing secret again (a restore replaced the store's). */
  reload(): void {
    this.#secret = metaSecret(this.meta, "dns_jwt_secret");
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
