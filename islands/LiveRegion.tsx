import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { subscribe } from "./_runtime/event_stream.ts";
import { LiveStatus } from "./_runtime/live_status.tsx";
import { coalesced, type LiveTrigger, matches } from "./_runtime/schedule.ts";

export type { LiveTrigger } from "./_runtime/schedule.ts";

export interface LiveRegionProps {
  /** Id of the server-rendered element to replace with the same element of a fresh render. */
  region: string;
  on: LiveTrigger[];
  /**
   * False where another island on the page already shows the stream's state:
   * then nothing is shown until the region cannot be refreshed (one status
   * per page, so screen readers hear "Offline" once).
   */
  pill?: boolean;
}

/**
 * Re-renders one region of a server-rendered page when an event says what it
 * shows changed: the page is fetched again (GET, same URL) and only that
 * region is swapped, so forms elsewhere on the page keep what is typed in
 * them. The rows stay the server's own markup; nothing is rendered twice.
 * Events are folded per animation frame, and those arriving while a fetch
 * runs into one more fetch. A region holding a field the user has changed
 * (a form being filled in) is not swapped: the pill asks for a reload.
 */
export default function LiveRegion({ region, on, pill = true }: LiveRegionProps) {
  const stale = useSignal(false);
  useEffect(() => {
    const refresh = coalesced(async () => {
      stale.value = !await swap(region);
    });
    const offs = on.map((t) =>
      subscribe(t.type, (e) => {
        if (matches(e.payload, t.where)) refresh();
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
    : pill
    ? <LiveStatus />
    : null;
}

/** Whether a control inside `el` holds something other than what the server rendered. */
function edited(el: Element): boolean {
  for (const c of el.querySelectorAll<HTMLInputElement>("input, textarea")) {
    if (c.type === "checkbox" || c.type === "radio") {
      if (c.checked !== c.defaultChecked) return true;
    } else if (c.type !== "hidden" && c.value !== c.defaultValue) return true;
  }
  for (const o of el.querySelectorAll<HTMLOptionElement>("option")) {
    if (o.selected !== o.defaultSelected) return true;
  }
  return false;
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
    if (!fresh || !current || edited(current)) return false;
    current.replaceWith(document.importNode(fresh, true));
    return true;
  } catch {
    // The page is being left (a form was submitted) or the network is down: nothing to show.
    return true;
  }
}
