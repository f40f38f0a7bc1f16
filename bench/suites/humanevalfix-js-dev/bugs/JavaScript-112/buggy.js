
const reverseDelete = (s, c) => {
  let t = ''
  for (let i = 0; i < s.length; i++) {
    let y = 1
    for (let j = 0; j < c.length; j++) {
      if (s[i] == c[j]) {
        y = 0
      }
    }
    if (y == 1) {
      t += s[i]
    }
  }
  let isPalindrome = false
  for (let i = 0; i < Math.floor(t.length / 2); i++) {
    if (t[i] != t[t.length - i - 1]) {
      isPalindrome = true
      break
    }
  }
  return [t, isPalindrome];
}

