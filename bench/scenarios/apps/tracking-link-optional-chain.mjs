// Order page: the "track your parcel" link. A shipment gets `tracking` when the label is printed
// and `tracking.carrier` only once the carrier has accepted the parcel.

export const scenario = {
  id: 'tracking-link-optional-chain',
  title: 'optional chain one level short: tracking?.carrier.code',
  entry: 'trackingLink',
  healthy: [
    [{ id: 's1', tracking: { number: 'JD0001', carrier: { code: 'dhl' } } }],
    [{ id: 's2', tracking: { number: '1Z 999', carrier: { code: 'ups' } } }],
    [{ id: 's3' }],
  ],
  failing: [
    [{ id: 's4', tracking: { number: 'LB123' } }],
  ],
  hidden: [
    [{ id: 's5', tracking: { number: 'LB124', carrier: null } }],
    [{ id: 's6', tracking: { number: 'AB/77', carrier: { code: 'gls' } } }],
    [{ id: 's7', tracking: null }],
    [{ id: 's8', tracking: { number: 'LB125' } }],
  ],
};

export function createApp(repair) {
  const trackingLink = repair.wrap('tracking-link', 'Link to the carrier\'s tracking page, or null while there is nothing to track', (shipment) => {
    const code = shipment.tracking?.carrier.code;
    if (!code) return null;
    return `https://track.example.com/${code}/${encodeURIComponent(shipment.tracking.number)}`;
  });
  return { trackingLink };
}

export function intended(shipment) {
  const code = shipment.tracking?.carrier?.code;
  if (!code) return null;
  return `https://track.example.com/${code}/${encodeURIComponent(shipment.tracking.number)}`;
}
