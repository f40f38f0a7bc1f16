async function greeting(userId) {
  const user = await db.getUser(userId);
  const phrases = LOCALES[user.locale];
  return phrases.hello + ', ' + user.firstName + '!';
}
