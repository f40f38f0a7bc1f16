
const pluck = (arr) => {
  if (arr.length == 0) return [];
  var evens = arr.filter(x => x % 2 == 0);
  if (evens.length == 0) return [];
  return [arr.indexOf(Math.min(...evens)), Math.min(...evens)];
}

