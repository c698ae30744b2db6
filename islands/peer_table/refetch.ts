import type { PeerTableProps } from "./types.ts";

const PROPS = /data-island="PeerTable" data-props="([^"]*)"/;

/**
 * The table's props in a fresh render of this page (same path and query, so
 * the page's filters, search and offset apply, and the caption's count is the
 * server's). Null when the page is gone or the session ended; "unchanged"
 * when the network failed (the page may be being left).
 */
export async function freshProps(): Promise<PeerTableProps | null | "unchanged"> {
  let html: string;
  try {
    const res = await fetch(location.pathname + location.search, {
      headers: { accept: "text/html" },
      credentials: "same-origin",
    });
    if (!res.ok || res.redirected) return null;
    html = await res.text();
  } catch {
    return "unchanged";
  }
  // A thousand rows make a large page: find the island's attribute rather than parse it all.
  const m = PROPS.exec(html);
  if (!m) return null;
  // A textarea decodes the attribute's entities and runs nothing.
  const decoder = document.createElement("textarea");
  decoder.innerHTML = m[1];
  try {
    return JSON.parse(decoder.value) as PeerTableProps;
  } catch {
    return null;
  }
}
