function tagCloud(posts) {
  return [...new Set(posts.flatMap((p) => p.tags.map((t) => t.toLowerCase())))];
}
