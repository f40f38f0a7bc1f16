function shippingNotice(user, messages, formats) {
  const text = messages[user.locale || 'en'];
  const pattern = formats[user.locale || 'en'].date;
  return { to: user.email, text, pattern };
}
