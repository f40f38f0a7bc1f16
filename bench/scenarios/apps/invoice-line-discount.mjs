// Billing service: the totals printed on an invoice. Lines come from the order service with a
// `discount` object when a promotion applied; lines keyed in by the back office have none.

export const scenario = {
  id: 'invoice-line-discount',
  title: 'invoice totals: a line without a discount object',
  entry: 'invoiceTotals',
  healthy: [
    [{ number: 'INV-1001', taxRate: 0.2, lines: [{ sku: 'A1', unitPrice: 10, quantity: 3, discount: { percent: 0 } }] }],
    [{ number: 'INV-1002', taxRate: 0.2, lines: [{ sku: 'A1', unitPrice: 10, quantity: 1, discount: { percent: 10 } }, { sku: 'B7', unitPrice: 24.5, quantity: 2, discount: { percent: 0 } }] }],
    [{ number: 'INV-1003', taxRate: 0.07, lines: [{ sku: 'C3', unitPrice: 99.99, quantity: 1, discount: { percent: 25 } }] }],
    [{ number: 'INV-1004', taxRate: 0.2, lines: [] }],
  ],
  failing: [
    [{ number: 'INV-1005', taxRate: 0.2, lines: [{ sku: 'A1', unitPrice: 10, quantity: 2, discount: { percent: 50 } }, { sku: 'Z9', unitPrice: 5, quantity: 4 }] }],
  ],
  hidden: [
    [{ number: 'INV-2001', taxRate: 0.2, lines: [{ sku: 'Z9', unitPrice: 5, quantity: 1 }] }],
    [{ number: 'INV-2002', taxRate: 0.07, lines: [{ sku: 'B7', unitPrice: 24.5, quantity: 2 }, { sku: 'C3', unitPrice: 99.99, quantity: 1, discount: { percent: 25 } }] }],
    [{ number: 'INV-2003', taxRate: 0, lines: [{ sku: 'Q1', unitPrice: 3.3, quantity: 3, discount: null }] }],
    [{ number: 'INV-2004', taxRate: 0.2, lines: [{ sku: 'A1', unitPrice: 12, quantity: 3, discount: { percent: 0 } }] }],
  ],
};

export function createApp(repair) {
  function invoiceTotals(invoice) {
    let net = 0;
    for (const line of invoice.lines) {
      const gross = line.unitPrice * line.quantity;
      net += gross - (gross * line.discount.percent) / 100;
    }
    const tax = Math.round(net * invoice.taxRate * 100) / 100;
    return { invoice: invoice.number, net: Math.round(net * 100) / 100, tax, total: Math.round((net + tax) * 100) / 100 };
  }
  return {
    invoiceTotals: (invoice) => repair.run('invoice-totals', 'Net, tax and total of an invoice: each line is unit price times quantity less its discount percent', invoiceTotals, invoice),
  };
}

/** A line with no discount is charged in full. */
export function intended(invoice) {
  let net = 0;
  for (const line of invoice.lines) {
    const gross = line.unitPrice * line.quantity;
    net += gross - (gross * (line.discount?.percent ?? 0)) / 100;
  }
  const tax = Math.round(net * invoice.taxRate * 100) / 100;
  return { invoice: invoice.number, net: Math.round(net * 100) / 100, tax, total: Math.round((net + tax) * 100) / 100 };
}
