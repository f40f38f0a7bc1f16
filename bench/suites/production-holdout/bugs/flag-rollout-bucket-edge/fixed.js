function isEnabled(flagName, user) {
  const flag = FLAGS[flagName];
  if (!flag || !flag.enabled) return false;
  if (flag.allowList.includes(user.id)) return true;
  return hashBucket(`${flagName}:${user.id}`) < flag.rolloutPercent;
}
