/** Previous/next links that keep the current query. */
export function Pagination(
  { url, total, limit, offset, prev = "← Newer", next = "Older →" }: {
    url: URL;
    total: number;
    limit: number;
    offset: number;
    prev?: string;
    next?: string;
  },
) {
  if (total <= limit && offset === 0) return null;
  const at = (o: number) => {
    const u = new URL(url);
    u.searchParams.set("offset", String(Math.max(0, o)));
    return u.pathname + u.search;
  };
  const first = total === 0 ? 0 : offset + 1;
  const last = Math.min(total, offset + limit);
  return (
    <nav class="pagination" aria-label="Pages">
      {offset > 0 ? <a href={at(offset - limit)} rel="prev">{prev}</a> : <span />}
      <span>{first}–{last} of {total}</span>
      {last < total ? <a href={at(offset + limit)} rel="next">{next}</a> : <span />}
    </nav>
  );
}
