function splitInstallments(totalCents, count) {
  const base = Math.floor(totalCents / count);
  const remainder = totalCents - base * count;
  const parts = [];
  for (let i = 0; i < count; i++) {
    parts.push(base + (i < remainder ? 1 : 0));
  }
  return parts;
}
