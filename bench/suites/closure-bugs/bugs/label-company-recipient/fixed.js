function labelFor(shipment) {
  const header = shipment.express ? 'EXPRESS' : 'STANDARD';
  const address = formatAddress(shipment.address);
  return [header, shipment.recipient.name?.toUpperCase(), address].join('\n');
}
