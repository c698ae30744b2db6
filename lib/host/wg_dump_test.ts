import { assertEquals } from "../../tests/assert.ts";
import { wgDump } from "./wg_dump.ts";

const IP = JSON.stringify([
  { ifname: "lo", flags: ["LOOPBACK", "UP"], mtu: 65536, addr_info: [] },
  {
    ifname: "wg1",
    flags: ["POINTOPOINT", "UP", "LOWER_UP"],
    mtu: 1420,
    addr_info: [{ family: "inet", local: "10.8.0.1", prefixlen: 24 }, {
      family: "inet6",
      local: "fe80::1",
      prefixlen: 64,
    }],
    stats64: { rx: { bytes: 100 }, tx: { bytes: 200 } },
  },
]);

const DUMP = [
  "wg1\tPRIVATE\tPUBKEY1=\t51820\toff",
  "wg1\tPEER1=\tPSK=\t192.0.2.7:40000\t10.8.0.2/32,10.9.0.0/24\t1767225600\t1234\t5678\t25",
  "wg1\tPEER2=\t(none)\t(none)\t(none)\t0\t0\t0\toff",
  // A userspace device of another namespace: its socket is visible, its link is not.
  "wgother\tPRIVATE\tPUBKEY2=\t51821\toff",
  "wgother\tPEER3=\t(none)\t(none)\t10.1.0.2/32\t0\t0\t0\toff",
].join("\n");

Deno.test("wgDump() merges wg and ip output, keeps only local devices, drops the private key", () => {
  const s = wgDump(DUMP, IP, 1);
  assertEquals([...s.interfaces.keys()], ["wg1"]);
  const i = s.interfaces.get("wg1")!;
  assertEquals([i.publicKey, i.listenPort, i.mtu, i.up, i.addressesV4, i.rxBytes, i.txBytes], [
    "PUBKEY1=",
    51820,
    1420,
    true,
    ["10.8.0.1/24"],
    100,
    200,
  ]);
  assertEquals(i.peers.get("PEER1="), {
    publicKey: "PEER1=",
    presharedKey: "PSK=",
    endpoint: "192.0.2.7:40000",
    allowedIps: ["10.8.0.2/32", "10.9.0.0/24"],
    latestHandshake: 1767225600,
    rxBytes: 1234,
    txBytes: 5678,
    keepalive: 25,
  });
  assertEquals(i.peers.get("PEER2=")!.allowedIps, []);
  assertEquals(
    JSON.stringify([...s.interfaces.values()].map((v) => ({ ...v, peers: [...v.peers.values()] })))
      .includes("PRIVATE"),
    false,
  );
});
