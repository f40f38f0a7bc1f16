
const changeBase = (x, base) => {
  var ret = "";
  while (x > 0) {
    ret = (x % base).toString() + ret;
    x = Math.floor(x - base);
  }
  return ret;
}

