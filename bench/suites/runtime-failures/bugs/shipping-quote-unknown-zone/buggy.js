const ZONES = {
  DE: { zone: 'eu', baseCents: 499, perKgCents: 120 },
  FR: { zone: 'eu', baseCents: 499, perKgCents: 120 },
  GB: { zone: 'uk', baseCents: 899, perKgCents: 180 },
  US: { zone: 'us', baseCents: 1299, perKgCents: 250 },
  ROW: { zone: 'row', baseCents: 1999, perKgCents: 400 },
};

async function lookupZone(country) {
  await Promise.resolve();
  return ZONES[country];
}

async function quoteShipping(order) {
  const rates = await lookupZone(order.shipTo.country);
  const weightKg = order.parcels.reduce((sum, parcel) => sum + parcel.weightKg, 0);
  const cents = rates.baseCents + Math.ceil(weightKg) * rates.perKgCents;
  return { orderId: order.id, zone: rates.zone, weightKg, cents };
}
