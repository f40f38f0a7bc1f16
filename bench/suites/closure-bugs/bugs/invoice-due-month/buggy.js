function formatDue(invoice) {
  const pattern = DATE_PATTERNS[invoice.locale] || DATE_PATTERNS.default;
  const d = new Date(invoice.dueAt);
  return pattern.replace('DD', pad2(d.getUTCDate())).replace('MM', pad2(d.getUTCMonth())).replace('YYYY', String(d.getUTCFullYear()));
}
