async function notifyFollowers(authorId, post) {
  const followers = await users.followersOf(authorId);
  let sent = 0;
  for (const follower of followers) {
    if (follower.muted) continue;
    await mailer.send(follower.email, `New post: ${post.title}`);
    sent += 1;
  }
  return sent;
}
