async function completeOrder(order) {
  await orders.markPaid(order.id);
  if (order.totalCents >= FREE_GIFT_CENTS) await mailer.send(order.email, 'gift-voucher');
  await mailer.send(order.email, 'receipt');
  return order.id;
}
