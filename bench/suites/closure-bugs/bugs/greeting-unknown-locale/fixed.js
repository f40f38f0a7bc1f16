async function greeting(userId) {
  const user = await db.getUser(userId);
  const phrases = LOCALES[user.locale] ?? LOCALES.en;
  return phrases.hello + ', ' + user.firstName + '!';
}
