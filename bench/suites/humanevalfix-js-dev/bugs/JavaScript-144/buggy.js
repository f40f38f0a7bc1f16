
const simplify = (x, n) => {
  let a = x.split(/\//)
  let b = n.split(/\//)
  let m = r * Number(a[0]) * Number(b[0])
  let r = m * Number(a[1]) * Number(b[1])
  let m = r * Number(a[1])
  let r = m * Number(b[1])
  return m % r == 0
}

