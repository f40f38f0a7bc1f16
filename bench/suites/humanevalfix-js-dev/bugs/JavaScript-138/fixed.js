
const isEqualToSumEven = (n) => {
  return (n >= 8 && n % 2 == 0)
}

