function averageRating(reviews) {
  if (reviews.length === 0) return 0;
  const total = reviews.reduce((sum, r) => sum + r.stars, 0);
  return Math.round((total / reviews.length) * 10) / 10;
}
