function volumeDiscount(cart) {
  const subtotal = cart.lines.reduce((sum, line) => sum + line.unitCents * line.qty, 0);
  const tier = [...DISCOUNT_TIERS].sort((a, b) => b.minCents - a.minCents).find((t) => subtotal >= t.minCents);
  const percent = tier ? tier.percent : 0;
  return { subtotal, discount: Math.round((subtotal * percent) / 100) };
}
