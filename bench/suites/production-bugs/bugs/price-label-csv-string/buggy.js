function priceLabel(item) {
  return `${item.price.toFixed(2)} ${item.currency}`;
}
