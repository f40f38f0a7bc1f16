
const fizzBuzz = (n) => {
  var ns = [], ans = 0;
  for (let i = 0; i < n; i++)
    if (i % 11 == 0 && i % 13 == 0)
      ns.push(i);
  var s = ns.map(x => x.toString()).join('');
  for (const c of s)
    ans += (c == '7');
  return ans;
}

