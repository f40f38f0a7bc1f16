
const sameChars = (s0, s1) => {
  return JSON.stringify([...new Set(s0)]) === JSON.stringify([...new Set(s1)]);
}

