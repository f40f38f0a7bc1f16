function pageOf(items, page, size) {
  const start = (page - 1) * size;
  const end = start + size;
  return { page, items: items.slice(start, end), hasMore: end < items.length };
}
