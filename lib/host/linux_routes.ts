/**
 * Palisade's routes on a Linux host: every route it writes carries its
 * protocol tag (`proto <P>`) in its table (`table <T>`), and it reads and
 * deletes only routes with that tag in that table, so routes of the kernel,
 * DHCP, routing daemons and the administrator are never touched
 * (docs/tunnels.md, "Routes and firewall on the host").
 */
import { HostError } from "../errors.ts";
import type { CommandRunner } from "./command.ts";
import type { DesiredRoute, LiveRoute } from "./net_state.ts";
import { diffRoutes, routeText } from "./net_diff.ts";

/** Where Palisade's routes live and the tag that marks them. */
export interface RouteScope {
  table: number;
  protocol: number;
}

interface IpRoute {
  dst?: string;
  gateway?: string;
  dev?: string;
  metric?: number;
  protocol?: string;
}

/** `ip -j route` lists 0.0.0.0/0 as "default" and a /32 as the bare address. */
function canonicalDst(dst: string | undefined): string {
  if (!dst || dst === "default") return "0.0.0.0/0";
  return dst.includes("/") ? dst : `${dst}/32`;
}

/** Routes of `ip -4 -j route show …` in the driver's terms. */
export function parseIpRoutes(json: string): LiveRoute[] {
  const rows = JSON.parse(json || "[]") as IpRoute[];
  return rows.map((r) => ({
    destination: canonicalDst(r.dst),
    gateway: r.gateway ?? "",
    metric: r.metric ?? 0,
    device: r.dev ?? "",
  }));
}

/** Lists routes of `scope.table`, filtered by `selector`; a table never used yet is empty. */
async function show(run: CommandRunner, scope: RouteScope, selector: string[]): Promise<string> {
  const args = ["-4", "-N", "-j", "route", "show", "table", String(scope.table), ...selector];
  const r = await run("ip", args, { allowFail: true });
  if (r.code === 0) return r.stdout;
  if (/table does not exist/i.test(r.stderr)) return "[]";
  throw new HostError(
    `Cannot read routes of table "${scope.table}": ${r.stderr.trim().split("\n")[0]}`,
    r.stderr,
  );
}

/** Palisade's routes: those with its protocol tag in its table. */
export async function readLinuxRoutes(run: CommandRunner, scope: RouteScope): Promise<LiveRoute[]> {
  return parseIpRoutes(await show(run, scope, ["proto", String(scope.protocol)]));
}

/**
 * A route with the same destination and metric under another protocol: the
 * kernel keys routes by table, destination and metric, so `ip route replace`
 * would take it over. Palisade refuses instead of overwriting it.
 */
async function foreignRoute(
  run: CommandRunner,
  scope: RouteScope,
  want: DesiredRoute,
): Promise<string | null> {
  const rows = JSON.parse(await show(run, scope, ["exact", want.destination])) as IpRoute[];
  const other = rows.find((r) =>
    (r.metric ?? 0) === want.metric && r.protocol !== String(scope.protocol)
  );
  return other ? (other.protocol ?? "unknown") : null;
}

function firstLine(s: string): string {
  return s.trim().split("\n")[0]?.replace(/^Error: /, "").slice(0, 200) || "no error output";
}

async function replaceRoute(run: CommandRunner, scope: RouteScope, want: DesiredRoute) {
  // deno-fmt-ignore
  const r = await run("ip", [
    "-4", "route", "replace", want.destination, "via", want.gateway, "dev", want.device,
    "metric", String(want.metric), "proto", String(scope.protocol), "table", String(scope.table),
  ], { allowFail: true });
  if (r.code !== 0) {
    throw new HostError(
      `Cannot set route "${routeText(want)}": ${firstLine(r.stderr)}`,
      r.stderr,
    );
  }
}

async function deleteRoute(
  run: CommandRunner,
  scope: RouteScope,
  route: { destination: string; metric: number },
) {
  // `proto` in a delete is a match: only a route with Palisade's tag can go.
  // deno-fmt-ignore
  const r = await run("ip", [
    "-4", "route", "del", route.destination, "metric", String(route.metric),
    "proto", String(scope.protocol), "table", String(scope.table),
  ], { allowFail: true });
  if (r.code !== 0 && !/No such process/.test(r.stderr)) {
    throw new HostError(
      `Cannot delete route "${route.destination}" metric ${route.metric}: ${firstLine(r.stderr)}`,
      r.stderr,
    );
  }
}

export interface RouteChanges {
  set: number;
  removed: number;
}

async function setRoute(
  run: CommandRunner,
  scope: RouteScope,
  want: DesiredRoute,
  missing: boolean,
) {
  if (missing) {
    const owner = await foreignRoute(run, scope, want);
    if (owner !== null) {
      const other = `a route to "${want.destination}" with metric ${want.metric}`;
      throw new HostError(
        `Cannot set route "${
          routeText(want)
        }": the host already has ${other} that is not Palisade's (protocol "${owner}")`,
      );
    }
  }
  await replaceRoute(run, scope, want);
}

/**
 * Makes Palisade's routes exactly `desired`: missing and changed ones are
 * written first (so a moved route is never absent), then its others deleted.
 * One route that fails does not hold back the others; the first failure is
 * thrown at the end.
 */
export async function setLinuxRoutes(
  run: CommandRunner,
  scope: RouteScope,
  desired: DesiredRoute[],
): Promise<RouteChanges> {
  const drift = diffRoutes(desired, await readLinuxRoutes(run, scope));
  const byKey = new Map(desired.map((d) => [`${d.destination}|${d.metric}`, d]));
  const failed: HostError[] = [];
  let set = 0, removed = 0;
  const attempt = async (fn: () => Promise<void>) => {
    try {
      await fn();
      return true;
    } catch (err) {
      if (!(err instanceof HostError)) throw err;
      failed.push(err);
      return false;
    }
  };
  for (const item of drift) {
    if (item.kind === "route_unexpected") continue;
    const want = byKey.get(`${item.destination}|${item.metric}`)!;
    if (await attempt(() => setRoute(run, scope, want, item.kind === "route_missing"))) set++;
  }
  for (const item of drift) {
    if (item.kind === "route_unexpected" && await attempt(() => deleteRoute(run, scope, item))) {
      removed++;
    }
  }
  if (failed.length) {
    const more = failed.length > 1 ? ` (and ${failed.length - 1} more failed)` : "";
    throw new HostError(
      `${failed[0].message}${more}`,
      failed.map((e) => e.detail ?? e.message).join("\n"),
    );
  }
  return { set, removed };
}
