function profileCard(user) {
  const BIO_PREVIEW = 40;
  const name = user.displayName || user.username;
  const bio = user.bio ?? '';
  const preview = bio.length > BIO_PREVIEW ? bio.slice(0, BIO_PREVIEW) + '…' : bio;
  return { name, preview };
}
