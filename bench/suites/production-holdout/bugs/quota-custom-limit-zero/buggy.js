function requestQuota(account) {
  const plan = PLAN_LIMITS[account.plan] ?? PLAN_LIMITS.free;
  const perMinute = account.customLimit || plan.perMinute;
  return { perMinute, burst: Math.min(plan.burst, perMinute) };
}
