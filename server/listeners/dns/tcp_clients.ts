/**
 * The open DNS TCP connections, by client address: who is admitted, who is
 * turned away, and who makes room when the listener is full.
 */

/** One open connection. */
export class TcpClient {
  /** When the connection last finished a query (or was accepted). */
  idleSince = Date.now();
  /** True while a query is being answered: never evicted then. */
  busy = false;
  #closed = false;

  constructor(readonly conn: Deno.Conn, readonly address: string) {}

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.conn.close();
    } catch { /* already closed by the peer */ }
  }
}

export class TcpClients {
  readonly #open = new Set<TcpClient>();
  readonly #perAddress = new Map<string, number>();

  constructor(private readonly limits: { maxConnections: number; perAddress: number }) {}

  get size(): number {
    return this.#open.size;
  }

  /**
   * The accepted connection as a client, or null when its address already
   * holds its share (the connection is closed). At the global cap the
   * longest-idle connection that is not answering a query is closed to make
   * room: an idle flood cannot lock out the clients that follow it.
   */
  admit(conn: Deno.Conn): TcpClient | null {
    const address = (conn.remoteAddr as Deno.NetAddr).hostname;
    if ((this.#perAddress.get(address) ?? 0) >= this.limits.perAddress) {
      closeQuietly(conn);
      return null;
    }
    if (this.#open.size >= this.limits.maxConnections && !this.#evictLongestIdle()) {
      closeQuietly(conn);
      return null;
    }
    const client = new TcpClient(conn, address);
    this.#open.add(client);
    this.#perAddress.set(address, (this.#perAddress.get(address) ?? 0) + 1);
    return client;
  }

  /** Forgets a connection that has ended. */
  release(client: TcpClient): void {
    if (!this.#open.delete(client)) return;
    const n = (this.#perAddress.get(client.address) ?? 1) - 1;
    if (n > 0) this.#perAddress.set(client.address, n);
    else this.#perAddress.delete(client.address);
  }

  /** Closes every connection (shutdown). */
  closeAll(): void {
    for (const c of this.#open) c.close();
  }

  /** Closes the connection idle the longest; false when every one is answering a query. */
  #evictLongestIdle(): boolean {
    let oldest: TcpClient | null = null;
    for (const c of this.#open) {
      if (!c.busy && (!oldest || c.idleSince < oldest.idleSince)) oldest = c;
    }
    if (!oldest) return false;
    oldest.close();
    this.release(oldest);
    return true;
  }
}

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch { /* already closed */ }
}
