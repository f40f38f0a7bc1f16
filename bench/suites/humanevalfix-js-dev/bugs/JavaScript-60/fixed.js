
const sumToN = (n) => {
  return n * (n + 1) / 2;
}

