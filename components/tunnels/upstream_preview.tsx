import { Fact, Facts } from "@/components/fact.tsx";
import { type Column, Table } from "@/components/table.tsx";
import type { UpstreamPreview } from "@/lib/tunnel/upstream_import.ts";

const IGNORED: Column[] = [{ label: "Line", num: true }, { label: "Section" }, { label: "Key" }, {
  label: "Why",
}];

const list = (xs: string[]) => xs.length === 0 ? <span class="muted">none</span> : xs.join(", ");

/** What import would create, as the service redacted it; the keys import does not apply. */
export function UpstreamPreviewView({ preview: p }: { preview: UpstreamPreview }) {
  const i = p.interface;
  return (
    <section aria-labelledby="upstream-preview" class="stack" id="preview">
      <h2 id="upstream-preview">Preview: nothing is stored yet</h2>
      <h3>Interface</h3>
      <Facts>
        <Fact label="Name">{i.name}</Fact>
        <Fact label="Address">
          <code>{i.address_v4}</code>
        </Fact>
        <Fact label="Other addresses (ignored)">
          {list([...i.addresses_v4, ...i.addresses_v6])}
        </Fact>
        <Fact label="MTU">{i.mtu}</Fact>
        <Fact label="Listen port">dynamic (the kernel picks one)</Fact>
        <Fact label="DNS (not applied)">{list(i.dns)}</Fact>
        <Fact label="Public key">
          <code>{i.public_key}</code>
        </Fact>
        <Fact label="Private key">{i.private_key}</Fact>
      </Facts>
      <h3>Provider peer</h3>
      <Facts>
        <Fact label="Name">{p.peer.name}</Fact>
        <Fact label="Endpoint">
          <code>{p.peer.endpoint}</code>
        </Fact>
        <Fact label="Public key">
          <code>{p.peer.public_key}</code>
        </Fact>
        <Fact label="Preshared key">{p.peer.preshared_key ?? <span class="muted">none</span>}</Fact>
        <Fact label="Allowed IPs">{list(p.peer.allowed_ips)}</Fact>
        <Fact label="Keepalive">{p.peer.keepalive === null ? "off" : `${p.peer.keepalive} s`}</Fact>
      </Facts>
      <h3>Ignored keys</h3>
      {p.ignored.length === 0
        ? <p class="empty">None: every key is applied.</p>
        : (
          <Table columns={IGNORED}>
            {p.ignored.map((k) => (
              <tr key={k.line} data-line={k.line}>
                <td class="num">{k.line}</td>
                <td>[{k.section}]</td>
                <th scope="row">{k.key}</th>
                <td>{k.reason}</td>
              </tr>
            ))}
          </Table>
        )}
    </section>
  );
}
