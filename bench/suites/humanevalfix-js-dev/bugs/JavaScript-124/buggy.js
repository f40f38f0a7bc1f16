
const validDate = (date) => {
  let t = date.split(/-/)
  if (t.length != 3) { return false }
  if (t[1] < 1 || t[1] > 12 || t[0] < 1) { return false }
  if (t[1] == 2 && t[0] > 29) { return false }
  if ((t[1] == 1 || t[1] == 3 || t[1] == 5 || t[1] == 7 || t[1] == 8 || t[1] == 10 || t[1] == 12) && t[0] > 31) { return false }
  if ((t[1] == 4 || t[1] == 6 || t[1] == 9 || t[1] == 11) && t[0] > 30) { return false }
  return true
}

