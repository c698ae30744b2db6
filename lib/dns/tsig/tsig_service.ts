/**
 * TSIG keys through the DNS API (docs/dns.md, "TSIG"): create (a random
 * secret as long as the algorithm's MAC unless one is given), list without
 * secrets, delete. Each change is audited and announced as `TsigKeyChanged`
 * after commit; the secret appears only in the creation's answer. The
 * in-memory keyring the listener verifies with is reloaded before a change
 * returns.
 */
import type { AuditLog } from "../../audit/audit.ts";
import { type Clock, isoTime } from "../../clock.ts";
import { ConflictError, NotFoundError, ValidationError } from "../../errors.ts";
import type { EventBus } from "../../events/bus.ts";
import type { AsyncTransactor } from "../../store/async_transactor.ts";
import { unique } from "../dns_context.ts";
import { normalizeZoneName } from "../names.ts";
import type {
  StoredTsigKey,
  TsigAlgorithm,
  TsigKeyRepo,
  TsigKeyRow,
  TsigPermission,
} from "./key_repo.ts";
import { TsigKeyCache } from "./keyring.ts";
import { secretLength } from "./sign.ts";

export interface TsigKeyView {
  name: string;
  algorithm: TsigAlgorithm;
  /** Zones the key may act on; empty for every zone. */
  zones: string[];
  permissions: TsigPermission[];
  created_at: string;
}

export interface NewTsigKeyInput {
  name: string;
  algorithm?: TsigAlgorithm;
  zones?: string[];
  permissions?: TsigPermission[];
  /** Base64 of an existing secret (moving a key from another server); random when absent. */
  secret?: string;
}

export interface TsigDeps {
  repo: TsigKeyRepo;
  transactor: AsyncTransactor;
  audit: Pick<AuditLog, "add">;
  events: Pick<EventBus, "emit">;
  clock: Clock;
}

/** Key names are plain host-name labels: every tool's key syntax takes them as they are. */
const KEY_NAME = /^[a-z0-9_-]{1,63}(\.[a-z0-9_-]{1,63})*$/;
/** Shorter secrets are guessable offline from one signed message. */
const MIN_SECRET = 16;

function view(k: TsigKeyRow): TsigKeyView {
  return { ...k, created_at: isoTime(k.created_at) };
}

/** The key's name as stored: lower case, no final dot; ValidationError otherwise. */
export function keyName(input: string): string {
  const name = input.trim().toLowerCase().replace(/\.$/, "");
  if (!KEY_NAME.test(name) || name.length > 253) {
    throw new ValidationError(
      `Key name "${input}" must be a domain name of letters, digits, "-" and "_"`,
      "name",
    );
  }
  return name;
}

function secretOf(input: string | undefined, algorithm: TsigAlgorithm): string {
  if (input === undefined) {
    const bytes = crypto.getRandomValues(new Uint8Array(secretLength(algorithm)));
    return btoa(String.fromCharCode(...bytes));
  }
  let bin: string;
  try {
    bin = atob(input.trim());
  } catch {
    throw new ValidationError("Secret is not base64", "secret");
  }
  if (bin.length < MIN_SECRET) {
    throw new ValidationError(`Secret must be at least ${MIN_SECRET} bytes`, "secret");
  }
  return btoa(bin);
}

export class TsigService {
  /** The keys with their secrets, in memory: for verifying requests and signing NOTIFY only. */
  readonly keyring: TsigKeyCache;

  constructor(private readonly d: TsigDeps) {
    this.keyring = new TsigKeyCache(d.repo);
  }

  /** Every key by name, never a secret. */
  async list(): Promise<TsigKeyView[]> {
    return (await this.d.repo.list()).map(view);
  }

  /** Creates a key; the answer is the one place its secret is shown. */
  async create(actor: string, input: NewTsigKeyInput): Promise<TsigKeyView & { secret: string }> {
    const name = keyName(input.name);
    const algorithm = input.algorithm ?? "hmac-sha256";
    const zones = unique((input.zones ?? []).map((z) => normalizeZoneName(z, "zones")));
    const permissions = [...new Set(input.permissions ?? ["transfer" as const])];
    if (permissions.length === 0) {
      throw new ValidationError("Give at least one permission", "permissions");
    }
    const secret = secretOf(input.secret, algorithm);
    const row: StoredTsigKey = {
      name,
      algorithm,
      zones,
      permissions,
      secret,
      created_at: this.d.clock.now(),
    };
    await this.d.transactor.tx(async () => {
      if (await this.d.repo.get(name)) {
        throw new ConflictError(`TSIG key "${name}" already exists`, "name");
      }
      await this.d.repo.insert(row);
      await this.d.audit.add({
        actor,
        event_type: "dns.tsig_key.created",
        message: `Created TSIG key "${name}" (${algorithm}, ${permissions.join(", ")})`,
        resource_type: "dns_tsig_key",
        resource_id: name,
      });
      this.#changed(name, "created");
    });
    await this.keyring.load();
    const { secret: _, ...listed } = row;
    return { ...view(listed), secret };
  }

  /** Deletes a key; NotFoundError when there is none of that name. */
  async delete(actor: string, input: string): Promise<{ success: true; message: string }> {
    const name = input.trim().toLowerCase().replace(/\.$/, "");
    await this.d.transactor.tx(async () => {
      if (!(await this.d.repo.get(name))) throw new NotFoundError(`TSIG key "${input}" not found`);
      await this.d.repo.delete(name);
      await this.d.audit.add({
        actor,
        event_type: "dns.tsig_key.deleted",
        message: `Deleted TSIG key "${name}"`,
        resource_type: "dns_tsig_key",
        resource_id: name,
      });
      this.#changed(name, "deleted");
    });
    await this.keyring.load();
    return { success: true, message: `TSIG key "${name}" deleted` };
  }

  #changed(name: string, action: string): void {
    this.d.transactor.afterCommit(() => this.d.events.emit("TsigKeyChanged", { name, action }));
  }
}
