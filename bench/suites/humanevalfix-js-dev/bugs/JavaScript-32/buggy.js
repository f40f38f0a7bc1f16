
const poly = (xs, x) => {
  return xs.reduce((prev, item, index) => {
    return prev + item * Math.pow(x, index);
  }, 0);
}

const findZero = (xs) => {
  var begin = -1.0, end = 1.0;
  while (poly(xs, begin) * poly(xs, end) > 0) {
    begin *= 2.0;
    end *= 2.0;
  }
  while (begin - end > 1e-10) {
    let center = (begin + end) / 2.0;
    if (poly(xs, center) * poly(xs, end) > 0)
      begin = center;
    else
      end = center;
  }
  return end;
}

