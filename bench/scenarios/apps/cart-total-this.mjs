// Shop: Cart#total. Gift wrapping was added later, inside the forEach callback, where `this` is
// not the cart.

export const scenario = {
  id: 'cart-total-this',
  title: 'this in a class method: read inside a function callback',
  entry: 'cartTotal',
  healthy: [
    [{ giftWrapFee: 250, lines: [{ sku: 'mug', priceCents: 1200, qty: 2 }] }],
    [{ giftWrapFee: 300, lines: [{ sku: 'tea', priceCents: 450, qty: 3 }, { sku: 'pot', priceCents: 2900, qty: 1, giftWrap: false }] }],
    [{ giftWrapFee: 250, lines: [] }],
  ],
  failing: [
    [{ giftWrapFee: 250, lines: [{ sku: 'mug', priceCents: 1200, qty: 1, giftWrap: true }] }],
  ],
  hidden: [
    [{ giftWrapFee: 300, lines: [{ sku: 'tea', priceCents: 450, qty: 2, giftWrap: true }, { sku: 'pot', priceCents: 2900, qty: 1, giftWrap: true }] }],
    [{ giftWrapFee: 100, lines: [{ sku: 'card', priceCents: 300, qty: 5 }, { sku: 'box', priceCents: 800, qty: 1, giftWrap: true }] }],
    [{ giftWrapFee: 250, lines: [{ sku: 'pen', priceCents: 150, qty: 4 }] }],
  ],
};

export function createApp(repair) {
  class Cart {
    constructor(lines, giftWrapFee) {
      this.lines = lines;
      this.giftWrapFee = giftWrapFee;
    }
  }
  Cart.prototype.total = repair.wrap('cart-total', 'Cart total in cents: price times quantity of each line, plus the gift-wrap fee for each gift-wrapped line', function () {
    let cents = 0;
    this.lines.forEach(function (line) {
      cents += line.priceCents * line.qty;
      if (line.giftWrap) cents += this.giftWrapFee;
    });
    return cents;
  });
  return { cartTotal: (data) => new Cart(data.lines, data.giftWrapFee).total() };
}

export function intended(data) {
  let cents = 0;
  for (const line of data.lines) {
    cents += line.priceCents * line.qty;
    if (line.giftWrap) cents += data.giftWrapFee;
  }
  return cents;
}
