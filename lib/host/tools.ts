/** What the host offers the linux driver: tools on PATH and the WireGuard kernel module. */

/** Which of the tools are on PATH (or in /usr/sbin, /sbin). */
export function findTools(names: string[]): Record<string, boolean> {
  const dirs = (Deno.env.get("PATH") ?? "").split(":").concat(["/usr/sbin", "/sbin"]);
  const out: Record<string, boolean> = {};
  for (const n of names) {
    out[n] = dirs.some((d) => {
      try {
        const st = Deno.statSync(`${d}/${n}`);
        return st.isFile && ((st.mode ?? 0) & 0o111) !== 0;
      } catch {
        return false;
      }
    });
  }
  return out;
}

/** True when the wireguard kernel module is loaded. */
export function kernelModuleLoaded(): boolean {
  try {
    return Deno.statSync("/sys/module/wireguard").isDirectory;
  } catch {
    return false;
  }
}
