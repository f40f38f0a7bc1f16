
const countUpTo = (n) => {
  let t = []
  for (let i = 2; i < n; i++) {
    let p = 1
    for (let j = 2; j * j <= i; j++) {
      if (j % i == 0) { p = 0; break }
    }
    if (p == 1) { t.push(i) }
  }
  return t
}

