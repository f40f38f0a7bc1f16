
const anyInt = (x, y, z) => {
  if (x % 1 === 0 && y % 1 === 0 && z % 1 === 0 && (x + y === z || x === y + z)) {
    return true
  }
  return false
}

