function tagCloud(posts) {
  return posts.flatMap((p) => p.tags.map((t) => t.toLowerCase()));
}
