// Product page: the stock badge. `inventory` is the warehouse service's client, injected at
// start-up; its calls are async. Discontinued products are no longer known to the warehouse.

class InventoryClient {
  #items = new Map([
    ['mug-01', { sku: 'mug-01', onHand: 40 }],
    ['mug-02', { sku: 'mug-02', onHand: 3 }],
    ['tea-07', { sku: 'tea-07', onHand: 8 }],
    ['pot-11', { sku: 'pot-11', onHand: 2 }],
    ['cup-05', { sku: 'cup-05', onHand: 0 }],
  ]);
  #holds = new Map([
    ['tea-07', [{ order: 91 }, { order: 92 }, { order: 93 }]],
    ['pot-11', [{ order: 94 }, { order: 95 }]],
  ]);
  async get(sku) {
    await new Promise((r) => setTimeout(r, 1));
    return this.#items.get(sku) ?? null;
  }
  async holds(sku) {
    return this.#holds.get(sku) ?? [];
  }
}
const inventory = new InventoryClient();

export const scenario = {
  id: 'stock-badge-async-client',
  title: 'async injected client via uses: get() answers null for a discontinued product',
  entry: 'stockBadge',
  uses: ['inventory'],
  healthy: [['mug-01'], ['mug-02'], ['tea-07'], ['pot-11']],
  failing: [['lamp-99']],
  hidden: [['vase-12'], ['cup-05'], ['mug-02'], ['old-001']],
};

export function createApp(repair) {
  async function stockBadge(sku) {
    const item = await inventory.get(sku);
    const holds = await inventory.holds(sku);
    const free = item.onHand - holds.length;
    return free > 5 ? 'in stock' : free > 0 ? `only ${free} left` : 'sold out';
  }
  return {
    stockBadge: (sku) => repair.run({ id: 'stock-badge', description: 'Stock badge of a product: in stock, only N left, or sold out', uses: { inventory } }, stockBadge, sku),
  };
}

/** A product the warehouse does not know is sold out. */
export async function intended(sku) {
  const item = await inventory.get(sku);
  const holds = await inventory.holds(sku);
  const free = (item?.onHand ?? 0) - holds.length;
  return free > 5 ? 'in stock' : free > 0 ? `only ${free} left` : 'sold out';
}
