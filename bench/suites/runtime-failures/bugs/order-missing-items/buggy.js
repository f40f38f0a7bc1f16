function summarizeOrder(order) {
  const lines = order.items.map((item) => ({
    sku: item.sku,
    quantity: item.quantity,
    totalCents: item.unitCents * item.quantity,
  }));
  const units = lines.reduce((sum, line) => sum + line.quantity, 0);
  const subtotalCents = lines.reduce((sum, line) => sum + line.totalCents, 0);
  return { orderId: order.id, status: order.status, lines, units, subtotalCents };
}
