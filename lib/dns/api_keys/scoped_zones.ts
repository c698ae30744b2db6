/**
 * GET /api/v1/zones for a key: the zones of its scope only. A key for every
 * zone pages through them as a user does; a key naming its zones gets those
 * of them that exist, by name, in one page (a key names few zones).
 */
import { NotFoundError } from "../../errors.ts";
import type { PageInfo, PageRequest } from "../../paging.ts";
import type { DnsService } from "../dns_service.ts";
import type { ZoneSummary } from "../zones.ts";
import type { KeyScope } from "./scope.ts";

export async function zonePageInScope(
  dns: DnsService,
  scope: KeyScope | undefined,
  req: PageRequest,
): Promise<{ zones: ZoneSummary[] } & PageInfo> {
  if (!scope || scope.zones === "*") return dns.listZonePage(req);
  const zones: ZoneSummary[] = [];
  for (const name of [...scope.zones].sort()) {
    try {
      const z = await dns.getZone(name);
      zones.push({
        name: z.name,
        records_count: z.records_count,
        created_at: z.created_at,
        updated_at: z.updated_at,
      });
    } catch (err) {
      // A zone deleted since the key was made: the key keeps it, the listing does not show it.
      if (!(err instanceof NotFoundError)) throw err;
    }
  }
  return { zones, total: zones.length, next_cursor: null };
}
