function isEnabled(flag, user) {
  let rollout;
  try {
    rollout = flags.rolloutPercent(flag);
  } catch {
    return false;
  }
  return bucketOf(user.id) < rollout;
}
