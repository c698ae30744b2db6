import { Fact, Facts } from "@/components/fact.tsx";
import { formatTime } from "@/components/format.ts";
import type { NetworkAvailable, NetworkView } from "@/lib/tunnel/networks/network_service.ts";
import { NetworkInterface, utilization } from "./networks_table.tsx";

/** A network's block, owner and utilization. */
export function NetworkFacts({ network: n }: { network: NetworkView }) {
  return (
    <section aria-labelledby="details">
      <h2 id="details">Details</h2>
      <Facts>
        <Fact label="Block">
          <code>{n.cidr}</code>
        </Fact>
        <Fact label="Interface">
          <NetworkInterface network={n} />
        </Fact>
        <Fact label="Origin">
          {n.origin === "interface" ? "made with its interface" : "created as a network"}
        </Fact>
        <Fact label="Utilization">{utilization(n)}</Fact>
        <Fact label="Created">{formatTime(n.created_at)}</Fact>
        <Fact label="Updated">{formatTime(n.updated_at)}</Fact>
      </Facts>
    </section>
  );
}

/** A page of unallocated addresses, with links to the first and the next page. */
export function AvailableAddresses(
  { network: n, available: a, after }: {
    network: NetworkView;
    available: NetworkAvailable;
    /** The `after` of this page, when it is not the first. */
    after: string | null;
  },
) {
  const base = `/networks/${n.id}`;
  return (
    <section aria-labelledby="available">
      <h2 id="available">Available addresses</h2>
      <p class="muted">
        {after ? `Free addresses above ${after}` : "The first free addresses"}, ascending. Not
        offered: the network and broadcast addresses, the interface's address and its peers'.
      </p>
      {a.addresses.length === 0
        ? <p class="empty">No free address {after ? "above this one" : "in this block"}.</p>
        : (
          <ul class="addresses" aria-label={`Available addresses of ${n.name}`}>
            {a.addresses.map((ip) => (
              <li key={ip}>
                <code>{ip}</code>
              </li>
            ))}
          </ul>
        )}
      <nav class="pagination" aria-label="Address pages">
        {after ? <a href={base}>← First addresses</a> : <span />}
        <span>{a.addresses.length} shown</span>
        {a.next_after
          ? (
            <a href={`${base}?after=${encodeURIComponent(a.next_after)}`} rel="next">
              More addresses →
            </a>
          )
          : <span />}
      </nav>
    </section>
  );
}
