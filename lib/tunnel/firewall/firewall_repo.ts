/**
 * The `firewall_rules` table: every SQL statement and row mapping of the
 * rules Palisade writes into its own nftables table (docs/tunnels.md,
 * "Firewall rules").
 */
import type { SqliteAsync } from "../../store/sqlite_async.ts";
import type { FirewallAction, FirewallDirection, FirewallProtocol } from "../../host/net_state.ts";

/** One stored rule, as the table holds it. */
export interface FirewallRuleRow {
  id: string;
  name: string;
  protocol: FirewallProtocol;
  /** Destination port (tcp and udp only); null for every port. */
  port: number | null;
  action: FirewallAction;
  direction: FirewallDirection;
  /** Incoming interface to match; null for any. */
  interface_id: string | null;
  /** Source block (canonical IPv4 CIDR); null for any. */
  source: string | null;
  /** 1 when the rule is on the host, 0 when disabled. */
  enabled: number;
  /** Evaluation order: ascending. */
  position: number;
  created_at: number;
  updated_at: number;
}

/** A rule with its interface's name (null when it matches any interface). */
export interface FirewallRuleWithInterface extends FirewallRuleRow {
  interface_name: string | null;
}

export interface FirewallRepo {
  /** Every rule with its interface's name, by position. */
  list(): Promise<FirewallRuleWithInterface[]>;
  /** One rule with its interface's name, or undefined. */
  get(id: string): Promise<FirewallRuleWithInterface | undefined>;
  /** The rule of this name, or undefined. */
  byName(name: string): Promise<FirewallRuleRow | undefined>;
  /** The highest position in use; 0 when there is no rule. */
  maxPosition(): Promise<number>;
  /** The rules that match the interface, by position. */
  ofInterface(interfaceId: string): Promise<FirewallRuleRow[]>;
  insert(row: FirewallRuleRow): Promise<void>;
  setEnabled(id: string, enabled: boolean, now: number): Promise<void>;
  delete(id: string): Promise<void>;
}

const SELECT_JOINED = `SELECT f.*, i.name AS interface_name
  FROM firewall_rules f LEFT JOIN interfaces i ON i.id = f.interface_id`;

export class SqliteFirewallRepo implements FirewallRepo {
  constructor(private readonly db: SqliteAsync) {}

  list(): Promise<FirewallRuleWithInterface[]> {
    return this.db.run((store) =>
      store.all<FirewallRuleWithInterface>(`${SELECT_JOINED} ORDER BY f.position`)
    );
  }

  get(id: string): Promise<FirewallRuleWithInterface | undefined> {
    return this.db.run((store) =>
      store.get<FirewallRuleWithInterface>(`${SELECT_JOINED} WHERE f.id = ?`, id)
    );
  }

  byName(name: string): Promise<FirewallRuleRow | undefined> {
    return this.db.run((store) =>
      store.get<FirewallRuleRow>("SELECT * FROM firewall_rules WHERE name = ?", name)
    );
  }

  maxPosition(): Promise<number> {
    return this.db.run((store) =>
      store.get<{ p: number }>(
        "SELECT coalesce(max(position), 0) AS p FROM firewall_rules",
      )!.p
    );
  }

  ofInterface(interfaceId: string): Promise<FirewallRuleRow[]> {
    return this.db.run((store) =>
      store.all<FirewallRuleRow>(
        "SELECT * FROM firewall_rules WHERE interface_id = ? ORDER BY position",
        interfaceId,
      )
    );
  }

  insert(r: FirewallRuleRow): Promise<void> {
    return this.db.run((store) => {
      store.run(
        `INSERT INTO firewall_rules (id, name, protocol, port, action, direction, interface_id,
           source, enabled, position, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        r.id,
        r.name,
        r.protocol,
        r.port,
        r.action,
        r.direction,
        r.interface_id,
        r.source,
        r.enabled,
        r.position,
        r.created_at,
        r.updated_at,
      );
    });
  }

  setEnabled(id: string, enabled: boolean, now: number): Promise<void> {
    return this.db.run((store) => {
      store.run(
        "UPDATE firewall_rules SET enabled = ?, updated_at = ? WHERE id = ?",
        enabled ? 1 : 0,
        now,
        id,
      );
    });
  }

  delete(id: string): Promise<void> {
    return this.db.run((store) => {
      store.run("DELETE FROM firewall_rules WHERE id = ?", id);
    });
  }
}
