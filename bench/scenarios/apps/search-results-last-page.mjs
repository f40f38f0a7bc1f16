// Search API: one page of results. Full pages work; the last page is usually shorter.

const hits = (n) => Array.from({ length: n }, (_, i) => ({ title: `Result ${i + 1}`, url: `/doc/${i + 1}` }));

export const scenario = {
  id: 'search-results-last-page',
  title: 'pagination: the loop runs a full page past the end of the results',
  entry: 'resultPage',
  healthy: [
    [hits(10), 1, 5],
    [hits(10), 2, 5],
    [hits(9), 1, 3],
    [hits(4), 1, 4],
  ],
  failing: [
    [hits(7), 2, 5],
  ],
  hidden: [
    [hits(11), 3, 5],
    [hits(3), 1, 5],
    [hits(6), 2, 4],
    [hits(6), 3, 3],
    [hits(8), 2, 4],
  ],
};

export function createApp(repair) {
  function resultPage(results, page, perPage) {
    const start = (page - 1) * perPage;
    const rows = [];
    for (let i = start; i < start + perPage; i++) {
      rows.push({ rank: i + 1, title: results[i].title, url: results[i].url });
    }
    return { page, pages: Math.ceil(results.length / perPage), rows };
  }
  return { resultPage: (results, page, perPage) => repair.run('search-page', 'Page `page` (from 1) of the search results, `perPage` rows each, ranked from 1', resultPage, results, page, perPage) };
}

export function intended(results, page, perPage) {
  const start = (page - 1) * perPage;
  const rows = [];
  for (let i = start; i < Math.min(start + perPage, results.length); i++) {
    rows.push({ rank: i + 1, title: results[i].title, url: results[i].url });
  }
  return { page, pages: Math.ceil(results.length / perPage), rows };
}
