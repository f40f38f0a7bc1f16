function averageRating(reviews) {
  const total = reviews.reduce((sum, r) => sum + r.stars, 0);
  return Math.round((total / reviews.length) * 10) / 10;
}
