
const filterIntegers = (values) => {
  return values.filter(x => Number.isInteger(x));
}

