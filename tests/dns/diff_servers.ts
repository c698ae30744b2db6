/**
 * The differential suite's three servers over the same zone text: Palisade
 * (its DNS stack, zones loaded with `importZone`), NSD and Knot. Optional
 * zone groups are first offered to Palisade on a scratch store; a group it
 * refuses is dropped from all three copies and reported.
 */
import { Buffer } from "node:buffer";
import { dnsPacket } from "../../lib/dns/packet.ts";
import { dnsTestService } from "../helpers/dns_service.ts";
import { tempStore } from "../helpers/temp_store.ts";
import { waitFor } from "../helpers/wait.ts";
import { exchangeAll } from "./diff_client.ts";
import { DIFF_ZONES, type DiffZone, ownersAndTypes, zoneText } from "./diff_zones.ts";
import { type Knot, startKnot } from "./knot.ts";
import { type Nsd, startNsd } from "./nsd.ts";
import { type DnsStack, startDnsStack } from "./stack.ts";

const XFR = ["127.0.0.1"];

export interface LoadedZone {
  zone: DiffZone;
  text: string;
  /** Optional groups served, and those Palisade refused with its reason. */
  served: string[];
  dropped: { id: string; reason: string }[];
}

export interface DiffServers extends AsyncDisposable {
  zones: LoadedZone[];
  palisade: DnsStack;
  nsd: Nsd;
  knot: Knot;
  ports: { palisade: number; nsd: number; knot: number };
}

/** Which optional groups of `z` Palisade takes, each tried on top of those taken before. */
async function probeGroups(z: DiffZone): Promise<LoadedZone> {
  await using tmp = await tempStore();
  const { service } = dnsTestService(tmp.store);
  const served = new Set<string>();
  const dropped: LoadedZone["dropped"] = [];
  await service.importZone("probe", z.name, zoneText(z, served), { replace: true });
  for (const g of z.optional) {
    try {
      await service.importZone("probe", z.name, zoneText(z, new Set([...served, g.id])), {
        replace: true,
      });
      served.add(g.id);
    } catch (err) {
      dropped.push({ id: g.id, reason: (err as Error).message });
    }
  }
  return { zone: z, text: zoneText(z, served), served: [...served], dropped };
}

async function answersSoa(port: number, zone: string): Promise<boolean> {
  const q = new Uint8Array(dnsPacket.encode({
    type: "query",
    id: 1,
    questions: [{ name: zone, type: "SOA", class: "IN" }],
  }));
  const [reply] = await exchangeAll(port, "udp", [q], { workers: 1, timeoutMs: 300 });
  if (!reply) return false;
  const p = dnsPacket.decode(Buffer.from(reply[0]));
  return p.rcode === "NOERROR" && p.flag_aa && p.answers.some((a) => a.type === "SOA");
}

/** Starts the three servers with the suite's zones; resolves when each answers every zone's SOA. */
export async function startDiffServers(): Promise<DiffServers> {
  const zones: LoadedZone[] = [];
  for (const z of DIFF_ZONES) zones.push(await probeGroups(z));
  // Transfers allowed to loopback on all three (Palisade's default ACL); many TCP connections
  // from one address (the suite's workers), as NSD and Knot take them.
  const palisade = await startDnsStack({ axfrAllow: XFR, tcp: { perAddress: 1024 } });
  const started: AsyncDisposable[] = [palisade];
  const dispose = async () => {
    for (const s of started.reverse()) await s[Symbol.asyncDispose]();
  };
  try {
    for (const l of zones) await palisade.service.importZone("diff", l.zone.name, l.text);
    const files = zones.map((l) => ({ name: l.zone.name, text: l.text }));
    const nsd = await startNsd(files, { minimalResponses: false, provideXfr: XFR });
    started.push(nsd);
    const knot = await startKnot(files, { provideXfr: XFR });
    started.push(knot);
    const ports = { palisade: palisade.port, nsd: nsd.port, knot: knot.port };
    for (const [server, port] of Object.entries(ports)) {
      for (const l of zones) {
        const up = await waitFor(() => answersSoa(port, l.zone.name), 10_000, 100);
        if (!up) {
          const log = server === "nsd" ? await nsd.log() : server === "knot" ? knot.log() : "";
          throw new Error(`${server} does not serve zone "${l.zone.name}": ${log}`);
        }
      }
    }
    return { zones, palisade, nsd, knot, ports, [Symbol.asyncDispose]: dispose };
  } catch (err) {
    await dispose();
    throw err;
  }
}

/** Names and types of the loaded zones, for the query generator. */
export function universe(zones: LoadedZone[]) {
  const names: string[] = [];
  const types = new Set<string>();
  for (const l of zones) {
    const got = ownersAndTypes(l.zone, l.text);
    names.push(...got.names);
    for (const t of got.types) types.add(t);
  }
  return { zones: zones.map((l) => l.zone.name), names, types: [...types] };
}
