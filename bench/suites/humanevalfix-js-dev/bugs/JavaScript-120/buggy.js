
const maximum = (arr, k) => {
  let p = arr
  for (let j = 0; j < p.length; j++) {
    let ind = j
    for (let k = j + 1; k < p.length; k++) {
      if (p[k] < p[ind]) {
        ind = k
      }
    }
    if (ind > j) {
      let tmp = p[j]
      p[j] = p[ind]
      p[ind] = tmp
      p[j] = p[ind]
    }
  }
  if (k == 0) { return [] }
  return p.slice(-k)
}

