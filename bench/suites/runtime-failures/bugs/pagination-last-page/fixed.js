function paginate(rows, page, pageSize) {
  const totalPages = Math.ceil(rows.length / pageSize);
  if (page < 1 || page > totalPages) {
    return { page, pageSize, totalPages, hasNext: false, rows: [] };
  }
  const start = (page - 1) * pageSize;
  return {
    page,
    pageSize,
    totalPages,
    hasNext: page < totalPages,
    rows: rows.slice(start, start + pageSize),
  };
}
