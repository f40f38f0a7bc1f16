function cartSummary(cart) {
  const amounts = cart.lines.map((l) => l.cents * l.qty);
  const subtotal = amounts.reduce((sum, a) => sum + a, 0);
  return { cartId: cart.id, items: cart.lines.length, subtotal };
}
