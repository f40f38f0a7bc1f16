function orderShippedText(locale, order) {
  const messages = MESSAGES[locale] || MESSAGES.en;
  return messages.shipped.replace('{id}', order.id).replace('{eta}', order.eta);
}
