
const sumToN = (n) => {
  return n * n / 2;
}

