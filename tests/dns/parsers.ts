/**
 * Three independent DNS message parsers as test oracles: BIND's dig, Knot's
 * kdig and dnspython (Debian's python3-dnspython). Each queries the real
 * listener, and each reports what it could not parse: dig and kdig by their
 * warnings and status, dnspython by the exception its strict wire reader
 * raises. `oracles()` returns null (SKIP) or throws (required) when one is
 * missing, as `haveSystem` does.
 */
import { haveSystem, run, systemTestsRequired } from "../helpers/system.ts";

/** What one parser made of one answer. */
export interface Parsed {
  status: string;
  /** Answer records as the parser prints them (owner, TTL, class, type, data). */
  answer: string[];
  /** Anything the parser complained about; empty when it read the reply cleanly. */
  complaints: string[];
}

export interface Oracles {
  /** Name and type queries over UDP (TCP when `tcp`), one result per query, in order. */
  query(port: number, queries: [string, string][], tcp?: boolean): Promise<Parsed[][]>;
  /** AXFR of `zone`: the records as each parser read them, and its complaints. */
  axfr(port: number, zone: string): Promise<Parsed[]>;
}

/** The answers and complaints in dig's or kdig's text output of several queries. */
function parseText(out: string, tool: "dig" | "kdig"): Parsed[] {
  const results: Parsed[] = [];
  let cur: Parsed | null = null;
  let inAnswer = false;
  const complaint = tool === "dig"
    ? /malformed|FORMERR|bad packet|unexpected|Warning|error/i
    : /WARNING|ERROR|malformed|failed/i;
  for (const line of out.split("\n")) {
    const h = /status: ([A-Z]+)/.exec(line);
    if (h) {
      cur = { status: h[1], answer: [], complaints: [] };
      results.push(cur);
      inAnswer = false;
      continue;
    }
    // A UDP answer that did not fit and was asked again over TCP is no parse error.
    if (complaint.test(line) && !/truncated reply/i.test(line)) {
      if (cur) cur.complaints.push(line.trim());
      else results.push({ status: "", answer: [], complaints: [line.trim()] });
      continue;
    }
    if (/^;; ANSWER SECTION/.test(line)) inAnswer = true;
    else if (line.startsWith(";;") || line.trim() === "") inAnswer = false;
    else if (inAnswer && cur) cur.answer.push(line.trim().split(/\s+/).join(" "));
  }
  return results;
}

const PY_QUERY = `
import json, sys
import dns.flags, dns.message, dns.query, dns.rcode
server, port, tcp = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "tcp"
out = []
for name, rtype in json.load(sys.stdin):
    q = dns.message.make_query(name, rtype)
    try:
        r = (dns.query.tcp if tcp else dns.query.udp)(q, server, port=port, timeout=3)
        if r.flags & dns.flags.TC:  # as dig and kdig do: ask again over TCP
            r = dns.query.tcp(q, server, port=port, timeout=3)
        out.append({"status": dns.rcode.to_text(r.rcode()), "complaints": [],
                    "answer": [" ".join(str(rr).split()) for s in r.answer for rr in s.to_text().split("\\n")]})
    except Exception as e:
        out.append({"status": "", "answer": [], "complaints": [type(e).__name__ + ": " + str(e)]})
print(json.dumps(out))
`;

const PY_AXFR = `
import json, sys
import dns.query
server, port, zone = sys.argv[1], int(sys.argv[2]), sys.argv[3]
answer, complaints = [], []
try:
    for m in dns.query.xfr(server, zone, port=port, lifetime=10, relativize=False):
        for s in m.answer:
            answer.extend(" ".join(l.split()) for l in s.to_text().split("\\n"))
except Exception as e:
    complaints.append(type(e).__name__ + ": " + str(e))
print(json.dumps({"status": "NOERROR" if not complaints else "", "answer": answer, "complaints": complaints}))
`;

/** A python3 that can import dnspython: Debian's lives beside /usr/bin/python3, which PATH may shadow. */
async function dnspython(): Promise<string | null> {
  for (const py of ["python3", "/usr/bin/python3"]) {
    try {
      const r = await run(py, ["-c", "import dns.message, dns.query"], { allowFail: true });
      if (r.code === 0) return py;
    } catch { /* not this one */ }
  }
  return null;
}

async function python<T>(py: string, script: string, args: string[], stdin = ""): Promise<T> {
  const r = await run(py, ["-c", script, ...args], { stdin });
  return JSON.parse(r.stdout) as T;
}

const server = (port: number) => ["@127.0.0.1", "-p", String(port), "+norec", "+time=3"];
const digArgs = (port: number) => [...server(port), "+tries=1"];
const kdigArgs = (port: number) => [...server(port), "+retry=0"];

/** The three parsers, or null when one is missing and system tests are not required. */
export async function oracles(testName: string): Promise<Oracles | null> {
  if (!haveSystem(testName, ["dig", "kdig"])) return null;
  const py = await dnspython();
  if (!py) {
    const reason = "python3-dnspython not installed";
    if (systemTestsRequired()) {
      throw new Error(`${testName}: ${reason} (PALISADE_REQUIRE_SYSTEM_TESTS=1)`);
    }
    console.log(`SKIP ${testName}: ${reason}`);
    return null;
  }
  return {
    async query(port, queries, tcp = false) {
      const args = queries.flatMap(([n, t]) => [n, t]);
      const vc = tcp ? ["+tcp"] : [];
      const dig = await run("dig", [...digArgs(port), ...vc, ...args], { allowFail: true });
      const kdig = await run("kdig", [...kdigArgs(port), ...vc, ...args], { allowFail: true });
      const pyOut = await python<Parsed[]>(py, PY_QUERY, [
        "127.0.0.1",
        String(port),
        tcp ? "tcp" : "udp",
      ], JSON.stringify(queries));
      return [
        parseText(dig.stdout + dig.stderr, "dig"),
        parseText(kdig.stdout + kdig.stderr, "kdig"),
        pyOut,
      ];
    },
    async axfr(port, zone) {
      const dig = await run("dig", [...digArgs(port), zone, "AXFR"], { allowFail: true });
      const kdig = await run("kdig", [...kdigArgs(port), zone, "AXFR"], { allowFail: true });
      return [
        axfrText(
          dig.stdout + dig.stderr,
          /; Transfer failed|communications error|malformed|FORMERR|bad packet|Warning/i,
        ),
        axfrText(kdig.stdout + kdig.stderr, /WARNING|ERROR|failed|malformed/i),
        await python<Parsed>(py, PY_AXFR, ["127.0.0.1", String(port), zone]),
      ];
    },
  };
}

/** A transfer in dig's or kdig's output: every record line, and the lines that report trouble. */
function axfrText(out: string, trouble: RegExp): Parsed {
  const complaints: string[] = [];
  const answer: string[] = [];
  for (const line of out.split("\n")) {
    if (trouble.test(line)) complaints.push(line.trim());
    else if (line.trim() !== "" && !line.startsWith(";")) {
      answer.push(line.trim().split(/\s+/).join(" "));
    }
  }
  return { status: complaints.length ? "" : "NOERROR", answer, complaints };
}
