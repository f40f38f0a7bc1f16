// Storefront: prices shown in the visitor's currency. The rate table is a module constant; the
// currency comes from the ?currency= query parameter, which browsers and links send in any case.

export const RATES = {
  EUR: { perEur: 1, decimals: 2, symbol: '€' },
  USD: { perEur: 1.08, decimals: 2, symbol: '$' },
  GBP: { perEur: 0.85, decimals: 2, symbol: '£' },
  JPY: { perEur: 162.4, decimals: 0, symbol: '¥' },
  CHF: { perEur: 0.97, decimals: 2, symbol: 'CHF ' },
};

export const scenario = {
  id: 'price-in-currency-rates',
  title: 'currency conversion reading a module constant (uses RATES): lower-case currency code',
  entry: 'displayPrice',
  uses: ['RATES'],
  healthy: [
    [19.99, 'EUR'],
    [19.99, 'USD'],
    [250, 'JPY'],
    [5, 'GBP'],
  ],
  failing: [
    [19.99, 'usd'],
  ],
  hidden: [
    [42.5, 'gbp'],
    [1000, 'jpy'],
    [12, 'Chf'],
    [7.25, 'EUR'],
  ],
};

export function createApp(repair) {
  function displayPrice(amountEur, currency) {
    const rate = RATES[currency];
    const factor = 10 ** rate.decimals;
    const amount = Math.round(amountEur * rate.perEur * factor) / factor;
    return `${rate.symbol}${amount.toFixed(rate.decimals)}`;
  }
  return {
    displayPrice: (amountEur, currency) => repair.run({ id: 'display-price', description: 'A price in euros shown in the visitor\'s currency, with its symbol', uses: { RATES } }, displayPrice, amountEur, currency),
  };
}

/** Currency codes are case-insensitive. */
export function intended(amountEur, currency) {
  const rate = RATES[currency.toUpperCase()];
  const factor = 10 ** rate.decimals;
  const amount = Math.round(amountEur * rate.perEur * factor) / factor;
  return `${rate.symbol}${amount.toFixed(rate.decimals)}`;
}
