
const addElements = (arr, k) => {
  let p = 0
  for (let i = 0; i < k; i++) {
    if (arr[i] < 100 && arr[i] > -100) { p += arr[i] }
  }
  return p
}

