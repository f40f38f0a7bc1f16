
const nextSmallest = (lst) => {
  let arr = lst
  for (let j = 0; j < arr.length; j++) {
    let ind = j
    for (let k = j + 1; k < arr.length; k++) {
      if (arr[k] < arr[ind]) {
        ind = k
      }
    }
    let tmp = arr[j]
    arr[j] = arr[ind]
    arr[ind] = tmp
  }
  let smallest = arr[0]
  let pt = 1
  while(pt<arr.length){
    if(arr[pt]>smallest){
      return arr[pt]
    }
    pt++
  }
  return null
}

