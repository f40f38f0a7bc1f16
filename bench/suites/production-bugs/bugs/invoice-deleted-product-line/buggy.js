function invoiceTotal(lines) {
  let total = 0;
  for (const line of lines) {
    total += line.qty * line.product.price;
  }
  return total;
}
