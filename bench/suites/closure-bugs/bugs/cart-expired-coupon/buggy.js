function cartTotal(cart) {
  let net = 0;
  for (const line of cart.lines) net += line.unitCents * line.qty;
  const discount = cart.coupon ? COUPONS[cart.coupon].percent : 0;
  return roundCents(net * (1 - discount / 100) * (1 + TAX_RATE));
}
