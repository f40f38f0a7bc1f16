// Reporting job: one row per day for the sales dashboard. A day with no orders (a holiday, a
// new shop) comes in with an empty list.

export const scenario = {
  id: 'daily-revenue-empty-day',
  title: 'daily revenue: reduce over an empty order list',
  entry: 'dailyRow',
  healthy: [
    ['2024-03-01', [{ id: 1, amount: 19.9 }, { id: 2, amount: 5 }]],
    ['2024-03-02', [{ id: 3, amount: 120 }]],
    ['2024-03-03', [{ id: 4, amount: 7.5 }, { id: 5, amount: 7.5 }, { id: 6, amount: 30 }]],
  ],
  failing: [
    ['2024-03-04', []],
  ],
  hidden: [
    ['2024-12-25', []],
    ['2024-03-05', [{ id: 7, amount: 42 }]],
    ['2024-03-06', [{ id: 8, amount: 0.1 }, { id: 9, amount: 0.2 }]],
  ],
};

export function createApp(repair) {
  function dailyRow(day, orders) {
    const revenue = orders.map((o) => o.amount).reduce((sum, amount) => sum + amount);
    return { day, orders: orders.length, revenue: Math.round(revenue * 100) / 100 };
  }
  return { dailyRow: (day, orders) => repair.run('daily-row', 'Dashboard row of a day: number of orders and revenue', dailyRow, day, orders) };
}

/** A day without orders has revenue 0. */
export function intended(day, orders) {
  const revenue = orders.map((o) => o.amount).reduce((sum, amount) => sum + amount, 0);
  return { day, orders: orders.length, revenue: Math.round(revenue * 100) / 100 };
}
