function priceLabel(item) {
  return `${Number(item.price).toFixed(2)} ${item.currency}`;
}
