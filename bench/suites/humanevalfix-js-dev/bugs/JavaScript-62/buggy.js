
const derivative = (xs) => {
  return xs.map((x, i) => x * i);
}

