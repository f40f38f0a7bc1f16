
const isSimplePower = (x, n) => {
  if (n == 1)
    return (x == 1);
  var power = 1;
  while (n < x)
    power = power * n;
  return (power == x);
}

