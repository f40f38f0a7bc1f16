// Notifications: the delivery e-mail. The copy deck is loaded from the CMS per language; a
// customer who never chose a language gets English (the block already says so for the subject).

const copy = {
  subjects: { en: 'Your parcel is on its way', de: 'Ihr Paket ist unterwegs', fr: 'Votre colis est en route' },
  dateFormats: { en: { long: 'MMMM d, yyyy' }, de: { long: 'd. MMMM yyyy' }, fr: { long: 'd MMMM yyyy' } },
};

export const scenario = {
  id: 'delivery-email-locale',
  title: 'locale lookup: the date format misses the || \'en\' fallback the subject has',
  entry: 'deliveryEmail',
  healthy: [
    [{ email: 'ann@example.com', lang: 'en' }, copy],
    [{ email: 'bo@example.de', lang: 'de' }, copy],
    [{ email: 'cy@example.fr', lang: 'fr' }, copy],
  ],
  failing: [
    [{ email: 'di@example.com' }, copy],
  ],
  hidden: [
    [{ email: 'eve@example.com', lang: '' }, copy],
    [{ email: 'fay@example.com', lang: null }, copy],
    [{ email: 'gus@example.de', lang: 'de' }, copy],
  ],
};

export function createApp(repair) {
  function deliveryEmail(customer, deck) {
    const lang = customer.lang || 'en';
    const subject = deck.subjects[lang];
    const dateFormat = deck.dateFormats[customer.lang].long;
    return { to: customer.email, subject, dateFormat };
  }
  return { deliveryEmail: (customer, deck) => repair.run('delivery-email', 'Delivery e-mail in the customer\'s language (English when none is set): recipient, subject, date format', deliveryEmail, customer, deck) };
}

export function intended(customer, deck) {
  const lang = customer.lang || 'en';
  return { to: customer.email, subject: deck.subjects[lang], dateFormat: deck.dateFormats[lang].long };
}
