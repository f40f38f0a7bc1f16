import { failureReport } from '../../testkit/service-harness.ts';

/** A block that reads RATES, a name of the app's module: suture cannot give it to a trial. */
export const PRICE_SOURCE = 'function (item) {\n  return item.qty * RATES[item.currency].rate;\n}';
export const priceReport = (uses?: string[]) => failureReport({
  block: { id: 'price', description: 'price of an item in its currency', source: PRICE_SOURCE, ...(uses ? { uses } : {}) },
  error: { name: 'TypeError', message: "Cannot read properties of undefined (reading 'rate')", stack: 'TypeError: x\n    at price (/srv/app/price.js:2:40)' },
  args: [{ qty: 2, currency: 'XTS' }],
});
export const MESSAGE = "block 'price' reads RATES, which suture cannot see; pass it in uses";
