function chase(player) {
  const myPos = self.getCurrentPosition();
  if (myPos.x < player.x) moveRight();
  else if (myPos.x > player.x) moveLeft();
  return myPos.x;
}
