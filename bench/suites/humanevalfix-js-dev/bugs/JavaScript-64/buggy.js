
const vowelsCount = (s) => {
  var vowels = "aeiouyAEIOUY";
  var n_vowels = s.split('').reduce((prev, item) => {
    return prev + (vowels.includes(item));
  }, 0);
  return n_vowels;
}

