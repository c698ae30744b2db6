import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { subscribe } from "./_runtime/event_stream.ts";
import { LiveStatus } from "./_runtime/live_status.tsx";

/** An event that makes the region out of date: its type, and payload fields it must carry. */
export interface LiveTrigger {
  type: string;
  /** Payload fields that must equal these values (e.g. `{id}` for one network's page). */
  where?: Record<string, string>;
}

export interface LiveRegionProps {
  /** Id of the server-rendered element to replace with the same element of a fresh render. */
  region: string;
  on: LiveTrigger[];
}

function matches(payload: Record<string, unknown>, where: Record<string, string> = {}): boolean {
  return Object.entries(where).every(([k, v]) => payload[k] === v);
}

/**
 * Re-renders one region of a server-rendered page when an event says what it
 * shows changed: the page is fetched again (GET, same URL) and only that
 * region is swapped, so forms elsewhere on the page keep what is typed in
 * them. The rows stay the server's own markup; nothing is rendered twice.
 * Events arriving while a fetch runs are folded into one more fetch.
 */
export default function LiveRegion({ region, on }: LiveRegionProps) {
  const stale = useSignal(false);
  useEffect(() => {
    let running = false;
    let again = false;
    const refresh = async () => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      try {
        do {
          again = false;
          stale.value = !await swap(region);
        } while (again);
      } finally {
        running = false;
      }
    };
    const offs = on.map((t) =>
      subscribe(t.type, (e) => {
        if (matches(e.payload, t.where)) void refresh();
      })
    );
    return () => offs.forEach((off) => off());
  }, []);
  return stale.value
    ? (
      <span class="live live-offline" role="status">
        Changed elsewhere: <a href="">reload</a>
      </span>
    )
    : <LiveStatus />;
}

/** Fetches the page again and swaps the region; false when that was not possible. */
async function swap(region: string): Promise<boolean> {
  try {
    const res = await fetch(location.pathname + location.search, {
      headers: { accept: "text/html" },
      credentials: "same-origin",
    });
    // A redirect means the session ended (the login page), an error that the thing is gone.
    if (!res.ok || res.redirected) return false;
    const doc = new DOMParser().parseFromString(await res.text(), "text/html");
    const fresh = doc.getElementById(region);
    const current = document.getElementById(region);
    if (!fresh || !current) return false;
    current.replaceWith(document.importNode(fresh, true));
    return true;
  } catch {
    // The page is being left (a form was submitted) or the network is down: nothing to show.
    return true;
  }
}
