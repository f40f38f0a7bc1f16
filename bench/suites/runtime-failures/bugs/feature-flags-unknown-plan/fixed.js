function canUseFeature(account, feature, planFeatures) {
  if (account.suspended) {
    return false;
  }
  const overrides = account.overrides || {};
  if (Object.hasOwn(overrides, feature)) {
    return overrides[feature] === true;
  }
  return (planFeatures[account.plan] ?? planFeatures.free).includes(feature);
}
