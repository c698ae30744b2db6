/**
 * The contract every host driver passes. An active driver must apply each
 * operation to the host (checked with `wg show` and `ip`, parsed by the test's
 * own helper), reflect it in its next read and touch nothing it was not asked
 * to; an inactive one accepts every operation and reads null.
 */
import { assert, assertEquals } from "../../tests/assert.ts";
import { netns, randomSuffix } from "../../tests/helpers/netns.ts";
import { haveSystem } from "../../tests/helpers/system.ts";
import { type HostInterface, hostInterface } from "../../tests/helpers/wg_host.ts";
import { keys, presharedKey } from "../tunnel/keys.ts";
import { diffInterface } from "./diff.ts";
import type { DesiredInterface, HostDriver } from "./driver.ts";
import { LinuxDriver } from "./linux_driver.ts";
import { NoneDriver } from "./none_driver.ts";

interface Subject extends AsyncDisposable {
  driver: HostDriver;
  /** The interface as the host has it, read without the driver; null for an inactive driver. */
  host: ((name: string) => Promise<HostInterface | null>) | null;
}

const subjects: { name: string; make: () => Promise<Subject | null> }[] = [
  {
    name: "none",
    make: () =>
      Promise.resolve({
        driver: new NoneDriver(),
        host: null,
        [Symbol.asyncDispose]: () => Promise.resolve(),
      }),
  },
  {
    name: "linux",
    make: async () => {
      if (!haveSystem("driver contract (linux)", ["ip", "wg", "wireguard-go"], { root: true })) {
        return null;
      }
      const ns = await netns();
      return {
        driver: new LinuxDriver({ netns: ns.name }),
        host: (name) => hostInterface(ns, name),
        [Symbol.asyncDispose]: () => ns[Symbol.asyncDispose](),
      };
    },
  },
];

async function desired(): Promise<DesiredInterface> {
  const k = await keys();
  const peers = [];
  for (let i = 2; i < 5; i++) {
    peers.push({
      publicKey: (await keys()).publicKey,
      presharedKey: i === 2 ? presharedKey() : null,
      allowedIps: [`10.66.0.${i}/32`],
      keepalive: null,
    });
  }
  return {
    // Unique across namespaces: wireguard-go sockets share /var/run/wireguard.
    name: `pc${randomSuffix(8)}`,
    privateKey: k.privateKey,
    publicKey: k.publicKey,
    listenPort: 40000 + Math.floor(Math.random() * 20000),
    addressV4: "10.66.0.1/24",
    mtu: 1420,
    up: true,
    peers,
  };
}

/** What the host should show for `want`, in the terms of tests/helpers/wg_host.ts. */
function expected(want: DesiredInterface): HostInterface {
  return {
    publicKey: want.publicKey,
    listenPort: want.listenPort!,
    mtu: want.mtu,
    up: want.up,
    addressesV4: [want.addressV4],
    peers: Object.fromEntries(want.peers.map((p) => [p.publicKey, {
      presharedKey: p.presharedKey,
      allowedIps: [...p.allowedIps].sort(),
      keepalive: p.keepalive,
    }])),
  };
}

for (const subject of subjects) {
  Deno.test(`HostDriver contract (${subject.name}): sync, read, setPeers, setLink, remove`, async () => {
    const s = await subject.make();
    if (!s) return;
    await using _ = s;
    const d = s.driver;
    const info = await d.info();
    assertEquals([info.driver, info.active], [d.name, d.active]);
    assertEquals(s.host !== null, d.active);
    const want = await desired();
    /** The host shows `want`, and the driver's own read agrees. */
    const applied = async (step: string) => {
      if (!s.host) return;
      assertEquals(await s.host(want.name), expected(want), step);
      assertEquals(
        diffInterface(want, (await d.read())!.interfaces.get(want.name)).drift,
        [],
        step,
      );
    };

    const first = await d.sync(want);
    if (!d.active) {
      assertEquals(await d.read(), null);
      assertEquals(first.peersSet, 0);
    } else {
      assert(first.created);
      assertEquals(first.peersSet, 3);
    }
    await applied("created");

    // Nothing differs: nothing is touched.
    const again = await d.sync(want);
    assertEquals([again.created, again.interfaceFields, again.peersSet, again.peersRemoved], [
      false,
      [],
      0,
      0,
    ]);
    await applied("synchronized again");

    // One peer changed, one removed: the third is left exactly as it was.
    const [p0, p1, p2] = want.peers;
    const before = (await s.host?.(want.name))?.peers[p2.publicKey];
    const changed = { ...p0, allowedIps: ["10.66.0.20/32"], presharedKey: null };
    await d.setPeers(want.name, [changed], [p1.publicKey]);
    want.peers = [changed, p2];
    await applied("peers set");
    if (s.host) assertEquals((await s.host(want.name))!.peers[p2.publicKey], before);

    await d.setLink(want.name, false);
    want.up = false;
    await applied("link down");

    // A bigger diff through sync: MTU, port and link back, a peer re-added.
    want.up = true;
    want.mtu = 1380;
    want.listenPort = want.listenPort! + 1;
    want.peers.push(p1);
    const fix = await d.sync(want);
    if (d.active) {
      assertEquals(fix.interfaceFields.sort(), ["link", "listen_port", "mtu"]);
      assertEquals([fix.peersSet, fix.peersRemoved], [1, 0]);
    }
    await applied("repaired");

    await d.remove(want.name);
    await d.remove(want.name); // absent is fine
    assertEquals((await d.read())?.interfaces.has(want.name) ?? false, false);
    if (s.host) assertEquals(await s.host(want.name), null, "removed from the host");
  });
}
