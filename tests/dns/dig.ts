/**
 * Runs dig and reads its default output into comparable parts: status,
 * header flags, and each section's records normalized (owner lowercased,
 * white space collapsed) and sorted, and as received.
 */
import { run } from "../helpers/system.ts";

export interface DigAnswer {
  status: string;
  flags: string[];
  question: string[];
  answer: string[];
  authority: string[];
  additional: string[];
  /** The OPT pseudosection line(s), e.g. "; EDNS: version: 0, flags:; udp: 1232". */
  opt: string[];
  /** The sections' records in the order of the message. */
  inOrder: { answer: string[]; authority: string[]; additional: string[] };
  /** The message's size in bytes ("MSG SIZE rcvd"). */
  size: number;
  raw: string;
}

/** Queries `server`:`port` with dig (`+norec` always) and parses the reply. */
export async function dig(port: number, args: string[], server = "127.0.0.1"): Promise<DigAnswer> {
  const r = await run("dig", [
    `@${server}`,
    "-p",
    String(port),
    "+norec",
    "+time=2",
    "+tries=2",
    ...args,
  ], {
    allowFail: true,
  });
  return parseDig(r.stdout);
}

/** Parses dig's default output. */
export function parseDig(out: string): DigAnswer {
  const res: DigAnswer = {
    status: "",
    flags: [],
    question: [],
    answer: [],
    authority: [],
    additional: [],
    opt: [],
    inOrder: { answer: [], authority: [], additional: [] },
    size: Number(/;; MSG SIZE {2}rcvd: (\d+)/.exec(out)?.[1] ?? NaN),
    raw: out,
  };
  let section: keyof DigAnswer | null = null;
  for (const line of out.split("\n")) {
    const h = /status: ([A-Z]+)/.exec(line);
    if (h) res.status = h[1];
    const f = /;; flags: ([a-z ]*);/.exec(line);
    if (f) res.flags = f[1].trim().split(/\s+/).filter(Boolean).sort();
    if (line.startsWith(";; QUESTION SECTION")) section = "question";
    else if (line.startsWith(";; ANSWER SECTION")) section = "answer";
    else if (line.startsWith(";; AUTHORITY SECTION")) section = "authority";
    else if (line.startsWith(";; ADDITIONAL SECTION")) section = "additional";
    else if (line.startsWith(";; OPT PSEUDOSECTION")) section = "opt";
    else if (line.trim() === "" || (line.startsWith(";;") && !line.startsWith(";; ->>"))) {
      section = null;
    } else if (section === "opt") res.opt.push(line);
    else if (section === "question") {
      res.question.push(line.replace(/^;/, "").trim().split(/\s+/).join(" "));
    } else if (section) {
      const parts = line.trim().split(/\s+/);
      parts[0] = parts[0].toLowerCase();
      (res[section] as string[]).push(parts.join(" "));
    }
  }
  for (const k of ["answer", "authority", "additional"] as const) {
    res.inOrder[k] = [...res[k]];
    res[k].sort();
  }
  return res;
}
