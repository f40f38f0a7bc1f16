function invoiceTotal(lines) {
  let total = 0;
  for (const line of lines) {
    if (line.product == null) continue;
    total += line.qty * line.product.price;
  }
  return total;
}
