/**
 * Pacing of live updates. Events arrive one WebSocket frame at a time, a
 * thousand in a burst when many peers change at once; handling each one as it
 * comes would re-render or refetch a thousand times and keep the page from
 * answering clicks. So work is done at most once per animation frame, and a
 * refetch runs at most once at a time with one more queued behind it.
 */

/** An event that makes a view out of date: its type, and payload fields it must carry. */
export interface LiveTrigger {
  type: string;
  /** Payload fields that must equal these values (e.g. `{id}` for one network's page). */
  where?: Record<string, string>;
}

export function matches(
  payload: Record<string, unknown>,
  where: Record<string, string> = {},
): boolean {
  return Object.entries(where).every(([k, v]) => payload[k] === v);
}

/** Returns a function that runs `fn` once in the next frame, however often it is called before. */
export function perFrame(fn: () => void): () => void {
  let queued = false;
  const run = () => {
    queued = false;
    fn();
  };
  return () => {
    if (queued) return;
    queued = true;
    // A hidden tab gets no frames; a timer keeps it current for when it is shown again.
    if (document.hidden) setTimeout(run, 250);
    else requestAnimationFrame(run);
  };
}

/**
 * Returns a function that schedules `task` for the next frame. While one run
 * is in flight, further calls fold into one more run after it, so a burst of
 * events costs two runs at most and the last one sees the final state.
 */
export function coalesced(task: () => Promise<void>): () => void {
  let running = false;
  let again = false;
  const run = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        await task();
      } while (again);
    } finally {
      running = false;
    }
  };
  return perFrame(() => void run());
}
