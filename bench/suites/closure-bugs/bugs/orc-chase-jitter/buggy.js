function chase(player) {
  const myPos = self.getCurrentPosition();
  if (myPos.x <= player.x) moveRight();
  else moveLeft();
  return myPos.x;
}
