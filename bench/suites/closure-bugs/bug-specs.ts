/**
 * The closure-bugs suite as written: for each bug (its block and reference fix are the bug
 * directory's buggy.js and fixed.js) the service it lives in (fresh live values per call: constants,
 * helpers, clients, objects with methods) and the calls to record. record-cases.ts turns these
 * into the suite's case files.
 */

export interface CaseSpec {
  /** Visible cases: 'failure' (the buggy block throws), 'recorded' (it answered right), 'test' (it answers wrongly). */
  kind?: 'failure' | 'recorded' | 'test';
  args: unknown[];
  /** The receiver (`this`). */
  self?: Record<string, unknown>;
}

export interface BugSpec {
  id: string;
  entry: string;
  description: string;
  bugType: string;
  /** The block's `uses`, live, fresh for each call. */
  service: () => Record<string, unknown>;
  /** Paths of helpers shipped as source (pure: no outside names, no `this`). */
  pure?: string[];
  visible: CaseSpec[];
  hidden: CaseSpec[];
  /**
   * The reference fix makes a call on the failing input that the failing call never made, so no
   * log answers it: the failing case is unverifiable for every candidate, the fix included.
   */
  unverifiable?: string;
}

class Unit {
  constructor(readonly id: string, private x: number, private y: number) {}
  getCurrentPosition() {
    return { x: this.x, y: this.y };
  }
}

function users(rows: Record<string, unknown>) {
  return {
    async getUser(id: string) {
      await Promise.resolve();
      return rows[id] ?? null;
    },
  };
}

export const BUGS: BugSpec[] = [
  {
    id: 'orc-chase-jitter',
    entry: 'chase',
    description: 'Game AI: each tick an orc steps towards the player along x: right when the player is to its right, left when to its left, and stays put when level with the player.',
    bugType: 'relational operator (calls)',
    service: () => ({ self: new Unit('orc-7', 4, 2), moveRight: () => undefined, moveLeft: () => undefined }),
    visible: [
      { kind: 'test', args: [{ x: 4, y: 9 }] },
      { kind: 'recorded', args: [{ x: 10, y: 0 }] },
      { kind: 'recorded', args: [{ x: 1, y: 5 }] },
    ],
    hidden: [{ args: [{ x: 4, y: 0 }] }, { args: [{ x: 5, y: 2 }] }, { args: [{ x: 3, y: 2 }] }, { args: [{ x: -20, y: 2 }] }],
  },
  {
    id: 'cart-expired-coupon',
    entry: 'cartTotal',
    description: 'Checkout total in cents: the lines\' net, less the coupon\'s percentage when the cart has a coupon, plus VAT, rounded to cents. A coupon code no longer in the table (expired) gives no discount.',
    bugType: 'property of undefined (module constant)',
    service: () => ({ COUPONS: { WELCOME10: { percent: 10 }, VIP25: { percent: 25 } }, TAX_RATE: 0.2, roundCents: (n: number) => Math.round(n) }),
    pure: ['roundCents'],
    visible: [
      { kind: 'failure', args: [{ id: 'c-41', coupon: 'SUMMER23', lines: [{ sku: 'TEE', unitCents: 1999, qty: 2 }] }] },
      { kind: 'recorded', args: [{ id: 'c-40', coupon: 'WELCOME10', lines: [{ sku: 'MUG', unitCents: 1250, qty: 1 }] }] },
      { kind: 'recorded', args: [{ id: 'c-39', lines: [{ sku: 'CAP', unitCents: 1500, qty: 3 }] }] },
    ],
    hidden: [
      { args: [{ id: 'c-41', coupon: 'SUMMER23', lines: [{ sku: 'TEE', unitCents: 1999, qty: 2 }] }] },
      { args: [{ id: 'c-42', coupon: 'BLACKFRIDAY', lines: [{ sku: 'HOOD', unitCents: 4999, qty: 1 }, { sku: 'SOCK', unitCents: 499, qty: 3 }] }] },
      { args: [{ id: 'c-43', coupon: 'VIP25', lines: [{ sku: 'HOOD', unitCents: 4999, qty: 2 }] }] },
    ],
  },
  {
    id: 'greeting-unknown-locale',
    entry: 'greeting',
    description: 'Greets a signed-in user in their language: loads the user (async database client), then picks the phrases of their locale. Locales without phrases of their own are greeted in English.',
    bugType: 'property of undefined (async client, constant)',
    service: () => ({
      db: users({ u1: { id: 'u1', firstName: 'Ana', locale: 'pt-BR' }, u2: { id: 'u2', firstName: 'Jonas', locale: 'de' }, u3: { id: 'u3', firstName: 'Amy', locale: 'en' }, u4: { id: 'u4', firstName: 'Léa', locale: 'fr' }, u5: { id: 'u5', firstName: 'Kenji', locale: 'ja' } }),
      LOCALES: { en: { hello: 'Hello' }, de: { hello: 'Hallo' }, fr: { hello: 'Bonjour' } },
    }),
    visible: [
      { kind: 'failure', args: ['u1'] },
      { kind: 'recorded', args: ['u2'] },
      { kind: 'recorded', args: ['u3'] },
    ],
    hidden: [{ args: ['u1'] }, { args: ['u5'] }, { args: ['u4'] }],
  },
  {
    id: 'reserve-last-units',
    entry: 'reserveLines',
    description: 'Reserves stock for an order\'s lines through the inventory client: a line is reserved when the warehouse has at least the quantity ordered available; returns the SKUs reserved.',
    bugType: 'relational operator (sync client calls)',
    service: () => {
      const levels: Record<string, number> = { 'KB-01': 3, 'MS-02': 10, 'HD-03': 0, 'CB-04': 1 };
      return { stock: { available: (sku: string) => levels[sku] ?? 0, reserve: (sku: string, qty: number) => { levels[sku] -= qty; return true; } } };
    },
    visible: [
      { kind: 'test', args: [{ id: 'o-1', lines: [{ sku: 'KB-01', qty: 3 }] }] },
      { kind: 'recorded', args: [{ id: 'o-2', lines: [{ sku: 'MS-02', qty: 2 }, { sku: 'HD-03', qty: 1 }] }] },
    ],
    hidden: [
      { args: [{ id: 'o-3', lines: [{ sku: 'CB-04', qty: 1 }, { sku: 'MS-02', qty: 10 }] }] },
      { args: [{ id: 'o-4', lines: [{ sku: 'HD-03', qty: 1 }, { sku: 'KB-01', qty: 1 }] }] },
    ],
  },
  {
    id: 'label-company-recipient',
    entry: 'labelFor',
    description: 'Prints a shipping label: the service level, the recipient\'s name in capitals and the formatted address (a helper that reads the country table). Parcels to a company without a contact name get an empty name line.',
    bugType: 'method on null (replayed helper)',
    service: () => {
      const COUNTRIES: Record<string, string> = { DE: 'GERMANY', NL: 'NETHERLANDS' };
      return { formatAddress: (a: { street: string; zip: string; city: string; country: string }) => `${a.street}, ${a.zip} ${a.city}, ${COUNTRIES[a.country] ?? a.country}` };
    },
    visible: [
      { kind: 'failure', args: [{ express: true, recipient: { name: null, company: 'Acme GmbH' }, address: { street: 'Hafenstr. 3', zip: '20457', city: 'Hamburg', country: 'DE' } }] },
      { kind: 'recorded', args: [{ express: false, recipient: { name: 'Eva Jansen' }, address: { street: 'Kade 12', zip: '1011', city: 'Amsterdam', country: 'NL' } }] },
    ],
    hidden: [
      { args: [{ express: true, recipient: { name: null, company: 'Acme GmbH' }, address: { street: 'Hafenstr. 3', zip: '20457', city: 'Hamburg', country: 'DE' } }] },
      { args: [{ express: true, recipient: { name: 'Tom Berg' }, address: { street: 'Ring 1', zip: '50667', city: 'Köln', country: 'DE' } }] },
    ],
  },
  {
    id: 'flag-unknown-rollout',
    entry: 'isEnabled',
    description: 'Feature flags: a user sees a feature when their bucket (a stable hash of their id, 0-99) is below the flag\'s rollout percentage from the flag service. A flag the service does not know is off.',
    bugType: 'dependency throws',
    service: () => {
      const table: Record<string, number> = { 'new-checkout': 30, 'dark-mode': 100 };
      return {
        flags: {
          rolloutPercent(flag: string) {
            if (!(flag in table)) {
              const e = new Error(`unknown flag ${flag}`);
              e.name = 'UnknownFlagError';
              throw e;
            }
            return table[flag];
          },
        },
        bucketOf: (id: string) => {
          let h = 0;
          for (const ch of id) h = (h * 31 + ch.charCodeAt(0)) % 100;
          return h;
        },
      };
    },
    pure: ['bucketOf'],
    visible: [
      { kind: 'failure', args: ['beta-search', { id: 'usr_19' }] },
      { kind: 'recorded', args: ['new-checkout', { id: 'usr_4' }] },
      { kind: 'recorded', args: ['dark-mode', { id: 'usr_19' }] },
    ],
    hidden: [{ args: ['beta-search', { id: 'usr_19' }] }, { args: ['new-checkout', { id: 'usr_77' }] }, { args: ['legacy-nav', { id: 'usr_4' }] }],
  },
  {
    id: 'leaderboard-tie-steals-lead',
    entry: 'addScore',
    description: 'A match\'s leaderboard (the object the method is called on) adds a player\'s points and hands the lead to them only when they pass the leader: on a tie the player who got there first keeps the lead. Returns the leader.',
    bugType: 'relational operator (this)',
    service: () => ({}),
    visible: [
      { kind: 'test', args: ['bo', 5], self: { scores: { ann: 12, bo: 7 }, best: { player: 'ann', points: 12 } } },
      { kind: 'recorded', args: ['bo', 9], self: { scores: { ann: 12, bo: 7 }, best: { player: 'ann', points: 12 } } },
      { kind: 'recorded', args: ['cy', 3], self: { scores: { ann: 12 }, best: { player: 'ann', points: 12 } } },
    ],
    hidden: [
      { args: ['cy', 12], self: { scores: { ann: 12 }, best: { player: 'ann', points: 12 } } },
      { args: ['ann', 1], self: { scores: { ann: 12, bo: 12 }, best: { player: 'ann', points: 12 } } },
      { args: ['bo', 1], self: { scores: { ann: 12, bo: 12 }, best: { player: 'ann', points: 12 } } },
    ],
  },
  {
    id: 'gift-threshold-mail',
    entry: 'completeOrder',
    description: 'Completes a paid order: marks it paid, mails a free-gift voucher for orders of FREE_GIFT_CENTS or more, then always mails the receipt. Returns the order id.',
    bugType: 'relational operator (async client calls)',
    service: () => ({
      orders: { markPaid: async (id: string) => ({ id, status: 'paid' }) },
      mailer: { send: async (to: string, template: string) => ({ queued: true, to, template }) },
      FREE_GIFT_CENTS: 5000,
    }),
    visible: [
      { kind: 'test', args: [{ id: 'ord-88', email: 'kim@example.org', totalCents: 5000 }] },
      { kind: 'recorded', args: [{ id: 'ord-87', email: 'lu@example.org', totalCents: 12000 }] },
      { kind: 'recorded', args: [{ id: 'ord-86', email: 'max@example.org', totalCents: 1999 }] },
    ],
    hidden: [{ args: [{ id: 'ord-90', email: 'ola@example.org', totalCents: 5000 }] }, { args: [{ id: 'ord-91', email: 'pia@example.org', totalCents: 4999 }] }, { args: [{ id: 'ord-92', email: 'raj@example.org', totalCents: 5001 }] }],
  },
  {
    id: 'invoice-due-month',
    entry: 'formatDue',
    description: 'Formats an invoice\'s due date in the customer\'s locale pattern (DD, MM, YYYY; patterns from the locale table, the default for others), day and month two digits.',
    bugType: 'off by one (constant, pure helper)',
    service: () => ({ DATE_PATTERNS: { de: 'DD.MM.YYYY', 'en-US': 'MM/DD/YYYY', default: 'YYYY-MM-DD' }, pad2: (n: number) => String(n).padStart(2, '0') }),
    pure: ['pad2'],
    visible: [
      { kind: 'test', args: [{ id: 'inv-1', locale: 'de', dueAt: '2026-03-05T00:00:00Z' }] },
      { kind: 'test', args: [{ id: 'inv-2', locale: 'en-US', dueAt: '2026-11-20T00:00:00Z' }] },
    ],
    hidden: [{ args: [{ id: 'inv-3', locale: 'sv', dueAt: '2026-12-31T00:00:00Z' }] }, { args: [{ id: 'inv-4', locale: 'de', dueAt: '2027-01-09T00:00:00Z' }] }],
  },
  {
    id: 'rate-limit-last-request',
    entry: 'allow',
    description: 'API rate limiter: each client may make LIMIT requests per window of WINDOW_MS (clock from the injected clock); the per-client windows live in a shared table. Returns whether this request is allowed.',
    bugType: 'relational operator (mutated module state)',
    service: () => ({
      clock: { now: () => 1_700_000_030_000 },
      WINDOWS: { 'key-a': { start: 1_700_000_000_000, count: 4 }, 'key-b': { start: 1_700_000_000_000, count: 1 }, 'key-c': { start: 1_699_999_000_000, count: 5 } },
      WINDOW_MS: 60_000,
      LIMIT: 5,
    }),
    visible: [
      { kind: 'test', args: ['key-a'] },
      { kind: 'recorded', args: ['key-b'] },
      { kind: 'recorded', args: ['key-new'] },
    ],
    hidden: [{ args: ['key-c'] }, { args: ['key-a'] }, { args: ['key-z'] }],
  },
  {
    id: 'recommendations-new-user',
    entry: 'recommendations',
    description: 'Product recommendations: the user\'s last purchases (purchase history client, null for a user who never bought), then similar products from the catalogue client, without those already bought, at most MAX_RECS ids. A user with no history gets the catalogue\'s picks for an empty history.',
    bugType: 'null from an async client',
    service: () => ({
      purchases: { recent: async (id: string) => ({ u1: [{ productId: 'p1' }, { productId: 'p2' }], u2: [{ productId: 'p9' }] } as Record<string, unknown>)[id] ?? null },
      catalog: { similar: async (ids: string[]) => (ids.length === 0 ? [{ id: 'p1' }, { id: 'p5' }, { id: 'p7' }, { id: 'p8' }] : [{ id: 'p2' }, { id: 'p3' }, { id: 'p4' }, { id: 'p5' }]) },
      MAX_RECS: 3,
    }),
    unverifiable: 'the fix asks catalog.similar([]) on the failing call, which threw before making it',
    visible: [
      { kind: 'failure', args: ['u-new'] },
      { kind: 'recorded', args: ['u1'] },
      { kind: 'recorded', args: ['u2'] },
    ],
    hidden: [{ args: ['u-new'] }, { args: ['u1'] }],
  },
  {
    id: 'reorder-at-point',
    entry: 'checkStock',
    description: 'Nightly stock check: an item is reordered when its on-hand count is at or below its reorder point (a helper that reads the purchasing config); low items are sent to the alerting client in one call. Returns how many were low.',
    bugType: 'relational operator (replayed helper, sync client)',
    service: () => {
      const config: Record<string, number> = { 'BOLT-M6': 200, 'NUT-M6': 150, 'WASHER': 500 };
      return { reorderPoint: (sku: string) => config[sku] ?? 50, alerts: { lowStock: (skus: string[]) => ({ sent: skus.length }) } };
    },
    visible: [
      { kind: 'test', args: [[{ sku: 'BOLT-M6', onHand: 200 }, { sku: 'NUT-M6', onHand: 900 }]] },
      { kind: 'recorded', args: [[{ sku: 'BOLT-M6', onHand: 20 }, { sku: 'WASHER', onHand: 1000 }]] },
      { kind: 'recorded', args: [[{ sku: 'NUT-M6', onHand: 151 }]] },
    ],
    hidden: [
      { args: [[{ sku: 'WASHER', onHand: 500 }, { sku: 'NUT-M6', onHand: 150 }, { sku: 'BOLT-M6', onHand: 201 }]] },
      { args: [[{ sku: 'NUT-M6', onHand: 3000 }]] },
      { args: [[{ sku: 'SPRING', onHand: 50 }]] },
    ],
  },
  {
    id: 'inventory-first-slot',
    entry: 'addItem',
    description: 'A player\'s backpack (the object the method is called on) puts a picked-up item into its first free slot (null) and answers true, or answers false when every slot is taken.',
    bugType: 'off by one (this)',
    service: () => ({}),
    visible: [
      { kind: 'test', args: [{ id: 'potion', qty: 1 }], self: { owner: 'p-3', slots: [null, null, { id: 'sword', qty: 1 }] } },
      { kind: 'recorded', args: [{ id: 'arrow', qty: 20 }], self: { owner: 'p-3', slots: [{ id: 'bow', qty: 1 }, null] } },
      { kind: 'recorded', args: [{ id: 'gem', qty: 1 }], self: { owner: 'p-4', slots: [{ id: 'bow', qty: 1 }, { id: 'map', qty: 1 }] } },
    ],
    hidden: [
      { args: [{ id: 'key', qty: 1 }], self: { owner: 'p-5', slots: [null] } },
      { args: [{ id: 'key', qty: 1 }], self: { owner: 'p-5', slots: [{ id: 'rope', qty: 1 }, { id: 'torch', qty: 2 }, null, null] } },
      { args: [{ id: 'key', qty: 1 }], self: { owner: 'p-6', slots: [] } },
    ],
  },
];
