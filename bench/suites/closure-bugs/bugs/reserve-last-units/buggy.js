function reserveLines(order) {
  const reserved = [];
  for (const line of order.lines) {
    if (stock.available(line.sku) > line.qty) {
      stock.reserve(line.sku, line.qty);
      reserved.push(line.sku);
    }
  }
  return reserved;
}
