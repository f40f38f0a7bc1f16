function toPublicProfile(user) {
  const displayName = user.profile.displayName.trim() || user.username;
  const initials = displayName
    .split(/\s+/)
    .slice(0, 2)
    .map((word) => word[0].toUpperCase())
    .join('');
  return { id: user.id, displayName, initials, avatarUrl: user.profile.avatarUrl ?? null };
}
