
const digitSum = (s) => {
  if (s == '') return 0;
  return s.split('').reduce((prev, char) => {
    let ord_char = char.charCodeAt(0)
    return prev + (ord_char > 64 && ord_char < 100 ? ord_char : 0);
  }, 0);
}

