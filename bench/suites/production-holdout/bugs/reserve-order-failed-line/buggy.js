async function reserveOrder(order) {
  const reserved = [];
  for (const line of order.lines) {
    reserved.push(line);
    try {
      await inventory.reserve(line.sku, line.qty);
    } catch (err) {
      for (const done of reserved) await inventory.release(done.sku, done.qty);
      return { ok: false, sku: line.sku, reason: err.message };
    }
  }
  return { ok: true, reserved: reserved.length };
}
