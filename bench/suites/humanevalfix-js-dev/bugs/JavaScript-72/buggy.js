
const willItFly = (q, w) => {
  if (q.reduce(((prev, item) => prev + item), 0) > w)
    return false;
  var i = 0, j = q.length - 1;
  while (i < j) {
    if (q[i] == q[j])
      return false;
    i++;
    j--;
  }
  return true;
}

