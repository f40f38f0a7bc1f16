const VAT = { DE: 0.19, FR: 0.2, NL: 0.21, default: 0.2 };

function grossCents(netCents, country) {
  const rate = VAT[country.toUpperCase()];
  return Math.round(netCents * (1 + rate));
}
