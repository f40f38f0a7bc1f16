
const incrList = (l) => {
  return l.map(e => e + 1);
}

