// Catalogue export: products in code order. Codes are text ("A-100"), except for products
// imported from the old ERP, whose codes came through as numbers.

export const scenario = {
  id: 'catalogue-sort-numeric-codes',
  title: 'sort comparator assumes every code is a string (localeCompare is not a function)',
  entry: 'catalogueOrder',
  healthy: [
    [[{ code: 'B-200', name: 'Bolt' }, { code: 'A-100', name: 'Anchor' }, { code: 'C-050', name: 'Clamp' }]],
    [[{ code: 'X-1', name: 'Xylan' }, { code: 'W-9', name: 'Washer' }]],
    [[{ code: 'K-7', name: 'Key' }]],
  ],
  failing: [
    [[{ code: 'B-200', name: 'Bolt' }, { code: 1042, name: 'Hinge' }, { code: 'A-100', name: 'Anchor' }]],
  ],
  hidden: [
    [[{ code: 3001, name: 'Gasket' }, { code: 'Z-1', name: 'Zip' }, { code: 200, name: 'Nut' }]],
    [[{ code: 'M-5', name: 'Magnet' }, { code: 77, name: 'Pin' }]],
    [[{ code: 'D-2', name: 'Dowel' }, { code: 'C-1', name: 'Cap' }]],
  ],
};

export function createApp(repair) {
  const catalogueOrder = repair.wrap('catalogue-order', 'Products sorted by product code, as "code name" lines', (products) => {
    return [...products].sort((a, b) => a.code.localeCompare(b.code)).map((p) => `${p.code} ${p.name}`);
  });
  return { catalogueOrder };
}

/** Numeric codes sort as their text. */
export function intended(products) {
  return [...products].sort((a, b) => String(a.code).localeCompare(String(b.code))).map((p) => `${p.code} ${p.name}`);
}
