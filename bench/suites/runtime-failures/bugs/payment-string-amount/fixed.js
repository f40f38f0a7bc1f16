function recordPayment(invoice, payment) {
  const paidCents = invoice.paidCents + Number(payment.amountCents);
  invoice.paidCents = paidCents;
  invoice.payments.push(payment.id);
  invoice.status = paidCents >= invoice.totalCents ? 'paid' : 'partial';
  return Math.max(0, invoice.totalCents - paidCents);
}
