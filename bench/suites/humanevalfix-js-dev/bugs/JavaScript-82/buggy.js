
const primeLength = (string) => {
  let len = string.length
  if (len == 1 || len == 0) { return false }
  for (let i = 3; i * i <= len; i++) {
    if (len % i == 0) { return false }
  }
  return true
}

