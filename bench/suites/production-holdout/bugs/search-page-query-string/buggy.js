function paginate(results, query) {
  const perPage = 5;
  const page = query.page ?? 1;
  const start = (page - 1) * perPage;
  const items = results.slice(start, start + perPage);
  const hasMore = start + perPage < results.length;
  return { page, items, nextPage: hasMore ? page + 1 : null };
}
