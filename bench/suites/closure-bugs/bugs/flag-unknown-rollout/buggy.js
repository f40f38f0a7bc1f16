function isEnabled(flag, user) {
  const rollout = flags.rolloutPercent(flag);
  return bucketOf(user.id) < rollout;
}
