
const chooseNum = (x, y) => {
  for (let i = y; i >= x; i--) {
    if (i % 2 == 0) {return i }
  }
  return x
}

