
const hexKey = (num) => {
  var primes = "2357BD",
      total = 0;
  for (let i = 0; i < num.length; i++)
    if (primes.includes(num[i]))
      total++;
  return total;
}

