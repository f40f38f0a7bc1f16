async function recommendations(userId) {
  const history = await purchases.recent(userId, 5);
  const ids = (history ?? []).map((p) => p.productId);
  const similar = await catalog.similar(ids);
  return similar.filter((r) => !ids.includes(r.id)).slice(0, MAX_RECS).map((r) => r.id);
}
