/** What a crawl of a site's pages met. */
export interface CrawlResult {
  /** Every HTML page fetched, with its status. */
  pages: { path: string; status: number }[];
  /** Links seen that are not pages (API requests), never followed. */
  skipped: number;
}

/** API requests are data requests: a page crawl follows only links outside /api/ (and never /mcp or /metrics). */
function isPageLink(path: string): boolean {
  return path.startsWith('/') && !path.startsWith('//') && !/^\/(api|mcp|metrics)(\/|$|\?)/.test(path);
}

/**
 * Fetches `start` and then every same-origin `<a href>` of every HTML page it reaches (breadth
 * first, each path once, `concurrency` at a time), as a crawler following a site's links would.
 */
export async function crawlPages(base: string, start: string, concurrency = 4): Promise<CrawlResult> {
  const seen = new Set([start]);
  const queue = [start];
  const pages: CrawlResult['pages'] = [];
  let skipped = 0;
  const worker = async () => {
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      const res = await fetch(base + path);
      const html = (res.headers.get('content-type') ?? '').startsWith('text/html');
      const text = await res.text();
      if (!html) continue;
      pages.push({ path, status: res.status });
      for (const m of text.matchAll(/<a\s[^>]*href="([^"#]+)/g)) {
        const href = m[1]!.replaceAll('&amp;', '&');
        if (seen.has(href)) continue;
        seen.add(href);
        if (isPageLink(href)) queue.push(href);
        else skipped++;
      }
    }
  };
  // Workers that found the queue empty come back while others still add to it.
  while (queue.length) await Promise.all(Array.from({ length: concurrency }, worker));
  return { pages, skipped };
}
