function parseStockCsv(text) {
  const lines = text.split('\n').slice(1).filter((line) => line.trim() !== '');
  return lines.map((line) => {
    const [sku, qty] = line.split(',');
    return { sku: sku.trim(), qty: Number(qty.trim()) };
  });
}
