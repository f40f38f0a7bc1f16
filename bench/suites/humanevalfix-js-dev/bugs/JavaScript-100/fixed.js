
const makeAPile = (n) => {
  let t = []
  for (let i = n; i < n * 3; i += 2) {
    t.push(i)
  }
  return t
}

