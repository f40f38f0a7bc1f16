
const getPositive = (l) => {
  return l.filter(e => e > 0);
}

