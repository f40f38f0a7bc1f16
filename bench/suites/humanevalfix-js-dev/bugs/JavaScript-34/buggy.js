
const unique = (l) => {
  return l.sort((a, b) => (a - b));
}

