/**
 * Network namespaces for system tests: unique names (`pltun-<random>`), and a
 * dispose that deletes every link inside (which makes wireguard-go exit),
 * ends any process still inside by its pid, and deletes the namespace.
 * A wireguard-go process holds its namespace alive, so `ip netns del` alone
 * would leak it.
 */
import { run } from "./system.ts";

export interface Netns extends AsyncDisposable {
  name: string;
  /** Runs `cmd args` inside the namespace. */
  exec(
    cmd: string,
    args: string[],
    opts?: { allowFail?: boolean; env?: Record<string, string> },
  ): Promise<
    { code: number; stdout: string; stderr: string }
  >;
}

/** A random suffix of `n` lowercase letters and digits. */
export function randomSuffix(n = 6): string {
  const a = "abcdefghijklmnopqrstuvwxyz0123456789";
  return Array.from(crypto.getRandomValues(new Uint8Array(n)), (b) => a[b % a.length]).join("");
}

/** Deletes every link but lo in `ns`, waits for wireguard-go sockets to go, ends leftovers, deletes `ns`. */
export async function destroyNetns(ns: string): Promise<void> {
  const links = await run("ip", ["-n", ns, "-j", "link", "show"], { allowFail: true });
  const names: string[] = links.code === 0
    ? (JSON.parse(links.stdout || "[]") as { ifname: string }[]).map((l) => l.ifname).filter((n) =>
      n !== "lo"
    )
    : [];
  for (const n of names) await run("ip", ["-n", ns, "link", "del", "dev", n], { allowFail: true });
  for (let i = 0; i < 100; i++) {
    const left = names.filter((n) => {
      try {
        Deno.lstatSync(`/var/run/wireguard/${n}.sock`);
        return true;
      } catch {
        return false;
      }
    });
    if (!left.length) break;
    await new Promise((r) => setTimeout(r, 30));
  }
  const pids = await run("ip", ["netns", "pids", ns], { allowFail: true });
  for (const pid of pids.stdout.split("\n").map(Number).filter((p) => p > 1)) {
    try {
      Deno.kill(pid, "SIGTERM");
    } catch { /* already gone */ }
  }
  await run("ip", ["netns", "del", ns], { allowFail: true });
}

/** A fresh namespace with lo up. */
export async function netns(prefix = "pltun"): Promise<Netns> {
  const name = `${prefix}-${randomSuffix()}`;
  await run("ip", ["netns", "add", name]);
  await run("ip", ["-n", name, "link", "set", "lo", "up"]);
  return {
    name,
    exec: (cmd, args, opts) => run("ip", ["netns", "exec", name, cmd, ...args], opts),
    [Symbol.asyncDispose]: () => destroyNetns(name),
  };
}
