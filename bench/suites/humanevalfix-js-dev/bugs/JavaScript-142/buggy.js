
const sumSquares = (lst) => {
  let y = 0
  for (let i = 0; i < lst.length; i++) {
    if (i % 3 == 0) { y += lst[i] * lst[i] }
    else { y += lst[i] }
  }
  return y
}

