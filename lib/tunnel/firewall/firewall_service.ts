/**
 * Firewall rules in Palisade's own nftables table: list, get, create,
 * delete, enable, disable. Each change commits with its audit record, then
 * the whole table is replaced through HostSync (one atomic nft transaction
 * in the driver); FirewallChanged goes out only once the host has it
 * (docs/tunnels.md, "Firewall rules").
 */
import { isoTime } from "../../clock.ts";
import { ConflictError, NotFoundError, UnprocessableError } from "../../errors.ts";
import type { FirewallAction, FirewallDirection, FirewallProtocol } from "../../host/net_state.ts";
import { isUnique } from "../unique.ts";
import type { TunnelContext } from "../context.ts";
import { keepChange } from "../history/history_write.ts";
import { applyThenAnnounce, applyToHost } from "../host_apply.ts";
import { checkFirewallInput, type FirewallRuleCreate } from "./firewall_input.ts";
import type { FirewallRuleWithInterface } from "./firewall_repo.ts";

export type { FirewallRuleCreate } from "./firewall_input.ts";

/** A firewall rule as the API shows it. */
export interface FirewallRuleView {
  id: string;
  name: string;
  protocol: FirewallProtocol;
  port: number | null;
  action: FirewallAction;
  direction: FirewallDirection;
  interface_id: string | null;
  interface_name: string | null;
  source: string | null;
  enabled: boolean;
  /** Evaluation order, ascending: the creation order. */
  position: number;
  created_at: string;
  updated_at: string;
}

function ruleView(r: FirewallRuleWithInterface): FirewallRuleView {
  return {
    id: r.id,
    name: r.name,
    protocol: r.protocol,
    port: r.port,
    action: r.action,
    direction: r.direction,
    interface_id: r.interface_id,
    interface_name: r.interface_name,
    source: r.source,
    enabled: r.enabled === 1,
    position: r.position,
    created_at: isoTime(r.created_at),
    updated_at: isoTime(r.updated_at),
  };
}

/** What a rule matches, for audit messages. */
function describe(r: Omit<FirewallRuleWithInterface, "id" | "created_at" | "updated_at">): string {
  const parts = [`${r.action} ${r.protocol}`];
  if (r.port !== null) parts.push(`port ${r.port}`);
  if (r.source !== null) parts.push(`from "${r.source}"`);
  if (r.interface_name !== null) parts.push(`in on "${r.interface_name}"`);
  parts.push(`(${r.direction}, position ${r.position})`);
  return parts.join(" ");
}

export class FirewallService {
  constructor(private readonly ctx: TunnelContext) {}

  /** Every rule, in evaluation order. */
  async list(): Promise<FirewallRuleView[]> {
    return (await this.ctx.firewallRepo.list()).map(ruleView);
  }

  /** One rule; NotFoundError when absent. */
  async get(id: string): Promise<FirewallRuleView> {
    return ruleView(await this.#require(id));
  }

  /**
   * Stores the rule after every other (position = highest + 1), then replaces
   * the host's table. `restore` (a reverted deletion, lib/tunnel/history/)
   * gives the rule back its id, and its position when no rule took it since.
   */
  async create(
    input: FirewallRuleCreate,
    actor: string,
    restore?: { id: string; position: number },
  ): Promise<FirewallRuleView> {
    const what = `Cannot create firewall rule ${JSON.stringify(input?.name)}`;
    const f = checkFirewallInput(input, what);
    const { transactor, interfaceRepo, firewallRepo, audit, clock } = this.ctx;
    const id = restore?.id ?? crypto.randomUUID();
    await transactor.tx(async () => {
      const iface = f.interfaceId === null ? null : await interfaceRepo.get(f.interfaceId);
      if (iface === undefined) {
        throw new UnprocessableError(
          `${what}: interface_id "${f.interfaceId}" is not a managed interface`,
          "interface_id",
        );
      }
      if (await firewallRepo.byName(f.name)) {
        throw new ConflictError(`${what}: name "${f.name}" is already used`, {
          field: "name",
          code: "duplicate_name",
        });
      }
      const now = clock.now();
      const row = {
        id,
        name: f.name,
        protocol: f.protocol,
        port: f.port,
        action: f.action,
        direction: f.direction,
        interface_id: f.interfaceId,
        source: f.source,
        enabled: f.enabled ? 1 : 0,
        position: restore && !(await firewallRepo.list()).some((r) =>
            r.position === restore.position
          )
          ? restore.position
          : await firewallRepo.maxPosition() + 1,
        created_at: now,
        updated_at: now,
      };
      try {
        await firewallRepo.insert(row);
      } catch (err) {
        throw isUnique(err)
          ? new ConflictError(`${what}: it conflicts with an existing rule`, "name")
          : err;
      }
      await keepChange(this.ctx, "firewall_rule", id, actor, "Created", null);
      await audit.add({
        actor,
        event_type: "firewall.created",
        message: `Created ${f.enabled ? "" : "disabled "}firewall rule "${f.name}": ${
          describe({ ...row, interface_name: iface?.name ?? null })
        }`,
        resource_type: "firewall_rule",
        resource_id: id,
      });
    });
    await this.#apply(`Firewall rule "${f.name}"`, id, "created");
    return this.get(id);
  }

  /** Deletes the rule and takes it out of the host's table. */
  async delete(id: string, actor: string): Promise<void> {
    const cur = await this.#require(id);
    const { transactor, firewallRepo, audit } = this.ctx;
    await transactor.tx(async () => {
      await firewallRepo.delete(id);
      await keepChange(this.ctx, "firewall_rule", id, actor, "Deleted", cur);
      await audit.add({
        actor,
        event_type: "firewall.deleted",
        message: `Deleted firewall rule "${cur.name}": ${describe(cur)}`,
        resource_type: "firewall_rule",
        resource_id: id,
      });
    });
    await this.#apply(`Deletion of firewall rule "${cur.name}"`, id, "deleted");
  }

  /** Puts the rule (back) into the host's table at its position. */
  enable(id: string, actor: string): Promise<FirewallRuleView> {
    return this.#setEnabled(id, true, actor);
  }

  /** Takes the rule out of the host's table; the row and its position stay. */
  disable(id: string, actor: string): Promise<FirewallRuleView> {
    return this.#setEnabled(id, false, actor);
  }

  async #setEnabled(id: string, enabled: boolean, actor: string): Promise<FirewallRuleView> {
    const cur = await this.#require(id);
    const action = enabled ? "enabled" : "disabled";
    const what = `Firewall rule "${cur.name}"`;
    if ((cur.enabled === 1) === enabled) {
      // Idempotent: no audit record, no event; the table is still re-applied,
      // which repairs a rule removed from the host by hand.
      await applyToHost(this.ctx, what, () => this.ctx.host.syncFirewall());
      return this.get(id);
    }
    const { transactor, firewallRepo, audit, clock } = this.ctx;
    await transactor.tx(async () => {
      await firewallRepo.setEnabled(id, enabled, clock.now());
      await keepChange(this.ctx, "firewall_rule", id, actor, enabled ? "Enabled" : "Disabled", cur);
      await audit.add({
        actor,
        event_type: `firewall.${action}`,
        message: `${enabled ? "Enabled" : "Disabled"} firewall rule "${cur.name}"`,
        resource_type: "firewall_rule",
        resource_id: id,
      });
    });
    await this.#apply(what, id, action);
    return this.get(id);
  }

  #apply(what: string, id: string, action: string): Promise<void> {
    return applyThenAnnounce(
      this.ctx,
      what,
      () => this.ctx.host.syncFirewall(),
      "FirewallChanged",
      { id, action },
    );
  }

  async #require(id: string): Promise<FirewallRuleWithInterface> {
    const r = await this.ctx.firewallRepo.get(id);
    if (!r) throw new NotFoundError(`Firewall rule "${id}" does not exist`);
    return r;
  }
}
