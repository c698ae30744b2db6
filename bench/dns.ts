/**
 * `deno task bench:dns`: dnsperf against Palisade's DNS listener and against
 * NSD (one server process, RRL off) serving the same zone with the same query
 * mix, in one run; prints both rates and their ratio. The zone is made by
 * Palisade's service and exported for NSD, so both serve identical data.
 *
 * Then the same zone signed: Palisade with DNSSEC on (ECDSAP256SHA256,
 * online signing) and NSD serving the zone signed offline by `ldns-signzone`
 * (same algorithm), both asked the same queries with the DO bit (`dnsperf
 * -D`) after a warm-up that fills Palisade's answer and signature caches.
 * Prints the signed rate, its ratio to unsigned Palisade (goal ≥ 0.8) and to
 * NSD pre-signed.
 *
 * Options (env): BENCH_SECONDS (default 10), BENCH_CLIENTS (default 2).
 * `--database-url postgres://…` keeps the zone in that (empty) PostgreSQL
 * database instead of a SQLite file: the answers still come from the
 * in-memory index, so only loading and changes touch the database.
 */
import { auditLogOf } from "../lib/compose/core.ts";
import { systemClock } from "../lib/clock.ts";
import { parseAcl } from "../lib/dns/acl.ts";
import { pgDnsRepos, sqliteDnsRepos } from "../lib/dns/dns_repos.ts";
import { DnsService } from "../lib/dns/dns_service.ts";
import { DnsResponder } from "../lib/dns/responder.ts";
import { DnsIndex } from "../lib/dns/zone_index.ts";
import { EventBus } from "../lib/events/bus.ts";
import { ATTEST_STORE_TUNING } from "../lib/attest/store_tuning.ts";
import { pickRepo, sqliteEngine } from "../lib/store/engine.ts";
import { closeEngine, openPgEngine } from "../lib/store/open_engine.ts";
import { Store } from "../lib/store/store.ts";
import { startDnsListener } from "../server/listeners/dns/listener.ts";
import { startNsd } from "../tests/dns/nsd.ts";
import { run, which } from "../tests/helpers/system.ts";
import { storeArgs } from "./lib/store_args.ts";

const ZONE = "bench.test";
const seconds = Number(Deno.env.get("BENCH_SECONDS") ?? 10);
const clients = Number(Deno.env.get("BENCH_CLIENTS") ?? 2);

for (const tool of ["dnsperf", "nsd", "ldns-keygen", "ldns-signzone"]) {
  if (!which(tool)) {
    console.log(`SKIP bench:dns: ${tool} not installed`);
    Deno.exit(0);
  }
}

function zoneText(): string {
  const lines = [
    "$TTL 3600",
    "@ SOA ns1 hostmaster 2026010100 3600 900 1209600 300",
    "@ NS ns1",
    "@ NS ns2",
    "ns1 A 192.0.2.53",
    "ns2 A 192.0.2.54",
    "@ A 192.0.2.1",
    "@ MX 10 mail",
    "mail A 192.0.2.25",
    '@ TXT "v=spf1 mx -all"',
    "*.wild A 192.0.2.99",
  ];
  for (let i = 0; i < 1000; i++) {
    lines.push(`host${i} A 192.0.${2 + (i >> 8)}.${i & 255}`);
    if (i % 4 === 0) lines.push(`host${i} AAAA 2001:db8::${i.toString(16)}`);
    if (i % 10 === 0) lines.push(`alias${i} CNAME host${i}`);
  }
  return lines.join("\n") + "\n";
}

/** The query mix: mostly A, some AAAA/MX/TXT, CNAMEs, wildcards, NODATA and NXDOMAIN. */
function queryFile(): string {
  const q: string[] = [];
  for (let i = 0; i < 1000; i++) {
    q.push(`host${i}.${ZONE} A`);
    if (i % 4 === 0) q.push(`host${i}.${ZONE} AAAA`);
    if (i % 10 === 0) q.push(`alias${i}.${ZONE} A`);
    if (i % 20 === 0) q.push(`nx${i}.${ZONE} A`);
    if (i % 25 === 0) q.push(`host${i + 1}.${ZONE} MX`);
    if (i % 50 === 0) q.push(`w${i}.wild.${ZONE} A`);
  }
  q.push(`${ZONE} MX`, `${ZONE} TXT`, `${ZONE} SOA`, `${ZONE} NS`);
  return q.join("\n") + "\n";
}

/** A short run that fills the answer cache (and, signed, the signature cache) and NSD's alike. */
function warmUp(port: number, file: string, dnssec = false) {
  const args = ["-s", "127.0.0.1", "-p", String(port), "-d", file, "-l", "1"];
  return run("dnsperf", dnssec ? ["-D", ...args] : args);
}

/** `text` signed offline with a fresh ECDSA P-256 KSK and ZSK by ldns (NSD's pre-signed zone). */
async function signedOffline(text: string): Promise<string> {
  const file = `${dir}/${ZONE}.zone`;
  await Deno.writeTextFile(file, text);
  // ldns-keygen writes its key files into the working directory and prints their base name.
  const keygen = async (ksk: boolean) => {
    const out = await new Deno.Command("ldns-keygen", {
      args: ["-a", "ECDSAP256SHA256", ...(ksk ? ["-k"] : []), ZONE],
      cwd: dir,
    }).output();
    return `${dir}/${new TextDecoder().decode(out.stdout).trim()}`;
  };
  const ksk = await keygen(true);
  const zsk = await keygen(false);
  await run("ldns-signzone", ["-n", "-f", `${file}.signed`, file, ksk, zsk]);
  return await Deno.readTextFile(`${file}.signed`);
}

async function dnsperf(
  port: number,
  file: string,
  dnssec = false,
): Promise<{ qps: number; lost: string }> {
  const r = await run("dnsperf", [
    ...(dnssec ? ["-D"] : []),
    "-s",
    "127.0.0.1",
    "-p",
    String(port),
    "-d",
    file,
    "-l",
    String(seconds),
    "-c",
    String(clients),
    "-q",
    "200",
  ]);
  const qps = Number(/Queries per second:\s+([\d.]+)/.exec(r.stdout)?.[1] ?? NaN);
  const lost = /Queries lost:\s+(.+)/.exec(r.stdout)?.[1] ?? "?";
  return { qps, lost };
}

const dir = await Deno.makeTempDir({ prefix: "palisade-bench-dns-" });
await using storeOpts = await storeArgs(Deno.args);
const url = storeOpts.env.PALISADE_DATABASE_URL;
const engine = url
  ? await openPgEngine({ url })
  : sqliteEngine(Store.open(`${dir}/palisade.db`, { tuning: ATTEST_STORE_TUNING }));
console.log(`store: ${storeOpts.label}`);
const bus = new EventBus();
const repos = pickRepo(engine, {
  sqlite: (_db, store) => sqliteDnsRepos(store),
  postgres: (db) => pgDnsRepos(db),
});
const index = new DnsIndex(repos);
const service = new DnsService({
  ...repos,
  transactor: engine.db,
  audit: auditLogOf(engine, bus, systemClock),
  events: bus,
  clock: systemClock,
  nameservers: ["ns1.{zone}"],
  index,
});
await service.importZone("bench", ZONE, zoneText());
await index.load();
const exported = await service.exportZone(ZONE);
const queries = `${dir}/queries.txt`;
await Deno.writeTextFile(queries, queryFile());

const listener = startDnsListener(
  { hostname: "127.0.0.1", port: 0 },
  new DnsResponder(index, { axfrAllowed: parseAcl(["127.0.0.1"]) }),
);
try {
  await using nsd = await startNsd([{ name: ZONE, text: exported }], { minimalResponses: false });
  console.log(
    `zone ${ZONE}: ${
      (await service.getZone(ZONE)).records_count
    } records; ${seconds} s per run, ${clients} clients`,
  );
  await warmUp(listener.addr.port, queries);
  await warmUp(nsd.port, queries);
  const nsdResult = await dnsperf(nsd.port, queries);
  const ours = await dnsperf(listener.addr.port, queries);
  console.log(`NSD      ${nsdResult.qps.toFixed(0)} qps (lost ${nsdResult.lost})`);
  console.log(`Palisade ${ours.qps.toFixed(0)} qps (lost ${ours.lost})`);
  console.log(`ratio    ${(ours.qps / nsdResult.qps).toFixed(3)} (target ≥ 0.35)`);

  // Signed, with the DO bit.
  await service.setDnssec("bench", ZONE, { enable: true, algorithm: "ECDSAP256SHA256" });
  await using nsdSigned = await startNsd([{ name: ZONE, text: await signedOffline(exported) }], {
    minimalResponses: false,
  });
  await warmUp(listener.addr.port, queries, true);
  await warmUp(nsdSigned.port, queries, true);
  const nsdSignedResult = await dnsperf(nsdSigned.port, queries, true);
  const signed = await dnsperf(listener.addr.port, queries, true);
  console.log(
    `NSD pre-signed      ${nsdSignedResult.qps.toFixed(0)} qps, DO (lost ${nsdSignedResult.lost})`,
  );
  console.log(`Palisade signed     ${signed.qps.toFixed(0)} qps, DO (lost ${signed.lost})`);
  console.log(`signed/unsigned     ${(signed.qps / ours.qps).toFixed(3)} (goal ≥ 0.8)`);
  console.log(`signed/NSD signed   ${(signed.qps / nsdSignedResult.qps).toFixed(3)}`);
} finally {
  await listener.close();
  await closeEngine(engine);
  await Deno.remove(dir, { recursive: true });
}
