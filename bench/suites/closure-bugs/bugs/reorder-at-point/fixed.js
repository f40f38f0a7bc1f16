function checkStock(items) {
  const low = [];
  for (const item of items) {
    if (item.onHand <= reorderPoint(item.sku)) low.push(item.sku);
  }
  if (low.length > 0) alerts.lowStock(low);
  return low.length;
}
