async function notifyFollowers(authorId, post) {
  const followers = await users.followersOf(authorId);
  let sent = 0;
  followers.forEach(async (follower) => {
    if (follower.muted) return;
    await mailer.send(follower.email, `New post: ${post.title}`);
    sent += 1;
  });
  return sent;
}
